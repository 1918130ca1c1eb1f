"""Requests an interpreter answers before any run (server.py's handshake): `compile`, the
frontend's oracle asking CPython whether candidate sources compile, and `checkpoints`, what
`--explain` shows a run would checkpoint (SPEC §3.4, §4.2; recovery/listing.py).

Loaded only when such a request comes first: a program run's first request is `run`. While no
request waits, the windows `--explain` asked to have listed ahead of its plan are listed a step
at a time, so the listing overlaps the host's planning.
"""

from aiython_bridge import modules, protocol
from aiython_bridge.json_codec import encode

__all__ = ["answer_until_run"]


def answer_until_run(channel, message):
    """Answers `message` and those after it while they are `compile` or `checkpoints` requests;
    the first that is neither (a `run`, or a protocol violation for the caller to report)."""
    ahead = None  # `--explain`'s windows listed while nothing else waits (recovery/listing.py)
    while message["type"] in (protocol.COMPILE, protocol.CHECKPOINTS):
        if message["type"] == protocol.COMPILE:
            from aiython_bridge.preparation import oracle

            value = oracle.check(message["items"])
            channel.send({"type": protocol.RESULT, "id": message["id"], "ok": True, "value": value})
        else:
            ahead = _checkpoints(channel, message, ahead)
        while ahead is not None and not ahead.done and not channel.waiting():
            ahead.step()
        message = channel.recv()
    return message


def _checkpoints(channel, message, ahead):
    """Answers a `checkpoints` request; the windows still to list ahead of the plan, if any."""
    listing = modules.load("aiython_bridge.recovery.listing")
    if message["plan"] is None:  # the windows to list ahead of the plan
        ahead = listing.Ahead(message["source"], message["filename"], message["entry"], message.get("parts") or [],
                              as_json=True)
        channel.send({"type": protocol.RESULT, "id": message["id"], "ok": True, "value": None})
        return ahead
    name = modules.load("aiython_bridge.preparation.program_code").display_name(message["filename"])
    value = listing.checkpoints_of(message.pop("source"), message["filename"], message.pop("plan"), entry=message["entry"],
                                   name=name, ahead=ahead, as_json=True)
    # The list's JSON text as it is, in the message the channel would have encoded.
    head = encode({"type": protocol.RESULT, "id": message["id"], "ok": True, "value": None})
    value[:0] = [head[:-len("null}")]]
    value.append("}")
    channel.send_encoded(value)
    return None
