"""The reader thread: the channel's reader while the program runs (server.py's start_reader).

Started with `_thread` (no `threading` state the program could see) once the run needs one: at
the bridge's first request of the host or pause, and in the console. It answers the host's
compile requests (an imported project module planned while the program runs), routes answers
to the bridge's own requests and pause operations to their pauses, and if the host vanishes
(the channel closes without end-of-stream) it ends this process so nothing is left behind. A
child of the run whose host ended it cleanly goes on, as python3's would. Loaded only when a
reader starts, or when a request answered on the asking thread meets another message.
"""

import _signal  # the C module under `signal`: built in, so importing it costs nothing (SPEC §12)
import _thread
import os

from aiython_bridge import modules, protocol
from aiython_bridge.channel import ChannelClosed

__all__ = ["dispatch", "read_loop"]


def read_loop(server):
    """The reader thread's body: every message of the channel, until it closes."""
    server.reader_ident = _thread.get_ident()
    try:
        while True:
            message = server.channel.recv()
            dispatch(server, message)
    except ChannelClosed as closed:
        _host_gone(server, closed.clean)
    except BaseException:  # a protocol violation after start: report, then stop
        import traceback  # only on failure

        server.report_fatal("control channel failed", traceback.format_exc())
        _host_gone(server)


def dispatch(server, message):
    """One message from the host while the program runs, to whoever waits for it."""
    kind = message["type"]
    if server.deliver_result(message):
        return
    if "pause" in message and server.pause_router is not None:
        server.pause_router(message)
    elif kind == protocol.COMPILE:
        # The host plans an imported project module while the program runs (import hook).
        value = modules.load("aiython_bridge.preparation.oracle").check(message["items"])
        server.channel.send({"type": protocol.RESULT, "id": message["id"], "ok": True, "value": value})
    else:
        raise protocol.ProtocolViolation("unexpected %r message while the program runs" % kind)


def _host_gone(server, clean=False):
    if server.exiting or os.getpid() != server.pid:
        return
    if clean and server.role == "child":
        server.host_ended()  # the run ended while this child still runs, as python3's would
        return
    # The host died (e.g. SIGKILL): never leave the program running on its own.
    os.kill(os.getpid(), _signal.SIGKILL)
