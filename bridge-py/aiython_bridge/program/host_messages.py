"""What the program's run asks and tells the host (runner.py): the entry program's `plan`
request (docs/protocol.md), the same request for a source that will not run (no model: the host
only counts its spans that are not Python), and `exit` with the end-of-stream once the program
and its atexit handlers are done. Loaded when the run first needs one of them: a run in which
nothing is planned and nothing speaks with the host never loads it.
"""

import os

from aiython_bridge import modules, protocol
from aiython_bridge.program.runner import ProgramContext

__all__ = ["ask_for_plan", "count_blocks", "report_exit_at_end"]


def ask_for_plan(server, source, filename):
    """The host's plan for the entry program (docs/protocol.md `plan`), or None. A program that
    does not compile most likely holds AI blocks: with a model configured, the code that serves
    their pauses is imported while the host plans (its frontend takes longer than the import),
    so the first block does not wait for it."""
    meanwhile = _load_pauses if server.options.get("model_configured") else None
    reply = server.request({"type": protocol.PLAN, "path": filename, "source": source, "module": "__main__", "entry": True}, meanwhile)
    if not reply.get("ok"):
        raise protocol.ProtocolViolation("the host did not plan the program: %s" % (reply.get("error") or {}).get("message"))
    plan = reply.get("value")
    return plan if isinstance(plan, dict) else None


def _load_pauses():
    try:
        modules.load("aiython_bridge.pauses.pause")
    except Exception:  # noqa: BLE001 - the first block imports it again and reports what fails
        pass


def count_blocks(server, text, filename):
    """Has the host plan a source that will not run (no model configured): the answer is only
    for the host's count of its spans that are not Python."""
    try:
        server.request({"type": protocol.PLAN, "path": filename, "source": text, "module": "__main__", "entry": True})
    except Exception:  # noqa: BLE001 - CPython's own error is what the program gets, whatever happens here
        pass


def report_exit_at_end(server):
    """The host hears how the program ended (`exit`) and the end-of-stream, after the program's
    atexit handlers: registered at the start of a run that speaks with the host (before the
    program's own, so it runs after them), or at its first request if it comes later."""
    import atexit

    atexit.register(_report_exit, server)


def _report_exit(server):
    if os.getpid() != server.pid:
        return  # a forked child of the program: the channel is the parent's
    server.exiting = True
    if server.role == "child":  # one of the run's processes: only its end of stream
        if getattr(server.channel, "connected", True) and not server.gone:
            try:
                server.channel.send_end_of_stream()
            except OSError:
                pass
        return
    try:
        server.channel.send(dict(ProgramContext.ending or {"status": 0, "interrupted": False}, type=protocol.EXIT))
        server.channel.send_end_of_stream()
    except OSError:
        pass
