"""Test support: an in-process decision source for recovery pauses, standing in for the host.

LocalDecisions answers a RecoveryPause from a `decide(request, op)` function: the function gets
the request the host would get and calls frame operations and the terminal `recover` through
`op`, which sends them through the pause's own message handling, so every decision goes through
the bridge's real pause code. It lives here, not in the bridge, because only tests and their
harnesses use it.
"""

import itertools
import json

from aiython_bridge.recovery.decision import PROPAGATE


class _Loopback:
    def __init__(self, sink):
        self.channel = self
        self.send = sink

    def send_all(self, messages):
        for message in messages:
            self.send(message)


class LocalDecisions:
    """Decisions from `decide(request, op)` in this process: `op(name, args)` runs one frame
    operation and returns the `result` message the host would receive; a terminal op (`recover`,
    `fail`) that succeeds ends the consultation. Ending without one counts as `fail`."""

    def __init__(self, decide):
        self.decide = decide

    def consult(self, pause):
        replies, final, ids = [], [], itertools.count(1)
        pause.server = _Loopback(replies.append)

        def op(name, args=None):
            if final:
                raise RuntimeError("this consultation already ended")
            args = dict(args or {})
            if name in ("recover", "finish") and "raw_arguments" not in args:
                args["raw_arguments"] = json.dumps(args)
            message = {"type": "op", "pause": pause.id, "id": f"t{next(ids)}", "op": name, "args": args}
            done, value = pause.handle(message)
            results = [reply for reply in replies if reply.get("type") == "result"]
            if name == "recover" and results[-1]["ok"]:  # as the host does, after its notice
                done, value = pause.handle({"type": "op", "pause": pause.id, "id": f"t{next(ids)}", "op": "resume", "args": {}})
            if done:
                final.append(value)
            replies.clear()
            return results[-1]

        try:
            self.decide(pause.request(), op)
        finally:
            pause.close()
        if final:
            return final[0]
        return PROPAGATE

    async def aconsult(self, pause):
        return self.consult(pause)


def complete(value=None, kind="literal"):
    """A decision that completes the failing statement (with `value` as its outcome, if given)."""
    def decide(request, op):
        args = {"action": "complete"}
        if value is not None:
            args["outcome"] = {"kind": kind, "value": value} if kind == "literal" else {"kind": kind, "code": value}
        reply = op("recover", args)
        assert reply["ok"], reply
    return decide
