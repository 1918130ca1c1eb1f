"""The bridge's control loop: the handshake, requests before the run (pre_run_requests.py), then
the program run; and the Server, through which the bridge asks the host while the program runs.

Until the `run` request, the main thread reads the channel itself (init, compile, run). From
then on the reader thread (reader.py) owns the channel once the run needs one: at the bridge's
first request of the host (a plan, the mailbox) or pause, and in the console. A fork's question
for the run folder is answered on the forking thread while no reader runs (request_here). Until
then the run has no thread of aiython's, as under python3 (a program that forks sees one
thread): the kernel ends it with its host instead (host_watch.py).
"""

import _signal  # the C module under `signal`: built in, so importing it costs nothing (SPEC §12)
import _thread
import os

from aiython_bridge import modules, protocol
from aiython_bridge.channel import Channel, ChannelClosed

__all__ = ["Server", "serve"]

_LOCK = type(_thread.allocate_lock())


class Server:
    def __init__(self, channel, role="main"):
        self.channel = channel
        self.pid = os.getpid()
        self.role = role  # "main": the run's first interpreter; "child": one of its processes (SPEC §8)
        self.exiting = False
        self.gone = False  # a child whose host ended the run: requests fail at once
        self.options = {}  # the run's RunOptions, once `run` has arrived
        self._next_id = 0
        self._pending = {}  # bridge request id -> [lock to release or callback, message]
        self._pending_lock = _thread.allocate_lock()
        self.pause_router = None  # set by the runtime when pauses exist (route(message))
        self.reader_ident = None  # the reader thread's, once it runs: not one of the program's threads
        self.reading = False  # the reader thread has been started
        self.talking = False  # the run speaks with the host while the program runs (exit, end-of-stream)
        self._reader_lock = _thread.allocate_lock()
        self.imported_sources = []  # project sources imported since the last pause, sent with it (SPEC §11.2)

    # -- requests the bridge makes of the host (e.g. plans for imported modules) ----------------
    def request(self, message, meanwhile=None):
        """The host's reply to `message`; `meanwhile()` runs on this thread while the host works."""
        waiter = _thread.allocate_lock()
        waiter.acquire()
        slot = self._send_request(message, waiter)
        if meanwhile is not None:
            meanwhile()
        waiter.acquire()
        return slot[1]

    def request_here(self, message):
        """request(message), answered on this thread when no reader thread runs (none is
        started for it): a run that has not needed one yet (a fork asking for the run folder)
        keeps none, so CPython sees no other thread at the fork."""
        with self._reader_lock:  # a reader started meanwhile waits for this answer
            if not self.reading and not self.gone:
                return self._request_unthreaded(message)
        return self.request(message)

    def _request_unthreaded(self, message):
        with self._pending_lock:
            self._next_id += 1
            request_id = "b%d" % self._next_id
        self.channel.send(dict(message, id=request_id))
        while True:
            reply = self.channel.recv()
            if reply.get("type") == protocol.RESULT and reply.get("id") == request_id:
                return reply
            modules.load("aiython_bridge.reader").dispatch(self, reply)

    def request_async(self, message, on_reply):
        """Sends a request; `on_reply(reply)` runs on the reader thread when it is answered."""
        self._send_request(message, on_reply)

    def _send_request(self, message, waiter):
        self.start_reader()  # the reply comes through the reader
        with self._pending_lock:
            self._next_id += 1
            request_id = "b%d" % self._next_id
            slot = [waiter, None]
            self._pending[request_id] = slot
        if not self.gone:
            self.channel.send(dict(message, id=request_id))
        if self.gone:
            self._fail_pending()
        return slot

    def _answer(self, request_id, message):
        with self._pending_lock:
            slot = self._pending.pop(request_id, None)
        if slot is None:
            return
        slot[1] = message
        if isinstance(slot[0], _LOCK):
            slot[0].release()
        else:
            slot[0](message)

    def _fail_pending(self):
        with self._pending_lock:
            ids = list(self._pending)
        for request_id in ids:
            self._answer(request_id, {"type": protocol.RESULT, "id": request_id, "ok": False,
                                      "error": {"type": "bridge_exited", "message": "the run has ended"}})

    # -- processes (SPEC §8) ---------------------------------------------------------------------
    def reset_after_fork(self, channel):
        """In a forked child: its own channel (None: no host to reach), locks and tables."""
        self.pid = os.getpid()
        self.role = "child"
        self.exiting = False
        self.reading = False  # the parent's reader is not in this process
        self._reader_lock = _thread.allocate_lock()
        self._pending = {}
        self._pending_lock = _thread.allocate_lock()
        if channel is None:
            self.gone = True
        else:
            self.channel = channel

    def host_ended(self):
        """A child whose host has ended the run: what waits on the host fails, the program goes on."""
        self.gone = True
        self.channel.closed = True  # nothing more is written on it
        self._fail_pending()
        pauses = modules.loaded("aiython_bridge.pauses.pause")
        if pauses is not None:
            pauses.end_all("the run ended before this finished")

    # -- the reader thread ------------------------------------------------------------------------
    def start_reader(self):
        """Starts the reader thread (reader.py), once; from then on the host hears how the program
        ends. A forked child's channel starts it once connected (processes/forked.py)."""
        if not getattr(self.channel, "connected", True):
            return
        with self._reader_lock:
            if self.reading:
                return
            self.reading = True
        if not self.talking:
            self.talking = True
            modules.load("aiython_bridge.program.host_messages").report_exit_at_end(self)
        _thread.start_new_thread(modules.load("aiython_bridge.reader").read_loop, (self,))

    def deliver_result(self, message):
        """Hands a `result` to the bridge's request that waits for it; False when none does."""
        if message.get("type") != protocol.RESULT or message.get("id") not in self._pending:
            return False
        self._answer(message["id"], message)
        return True

    def report_fatal(self, message, tb):
        try:
            self.channel.send({"type": protocol.FATAL, "message": message, "traceback": tb})
        except Exception:
            pass


def _ignore_inherited_signals(numbers):
    """SIG_IGN for the signals aiython inherited as ignored (nohup, `trap '' HUP`): python3 would
    have inherited them so, and signal.getsignal() answers SIG_IGN for them as it would there.
    Node, between the user's shell and this interpreter, reset them to SIG_DFL."""
    for number in numbers:
        try:
            _signal.signal(number, _signal.SIG_IGN)
        except (OSError, ValueError, TypeError):
            pass  # not a signal this platform lets a process ignore


def serve(control_fd, role):
    """The server of the run's first interpreter (`role` "main"), or of a spawned child of the
    run ("child")."""
    channel = Channel(control_fd)
    server = Server(channel, role=role)

    from aiython_bridge.processes import forked

    os.register_at_fork(
        before=lambda: forked.before_fork(server),
        after_in_parent=forked.after_fork_in_parent,
        after_in_child=lambda: forked.after_fork_in_child(server),
    )

    try:
        run_message = _handshake_and_prepare(server)
    except ChannelClosed:
        if server.role == "child":  # the host would not have it (the run has ended)
            from aiython_bridge.processes.child import become_plain

            become_plain()
        os._exit(0)
    except KeyboardInterrupt:
        raise
    except BaseException:
        import traceback  # only on failure: it costs a few ms of start-up

        server.report_fatal("the bridge failed before the program started", traceback.format_exc())
        server.exiting = True  # the host's close that follows is expected, not the host dying
        channel.send_end_of_stream()
        from aiython_bridge.boot import wait_for_host_close

        wait_for_host_close(channel.fd)
        os._exit(70)

    from aiython_bridge.program.runner import start_program

    return start_program(server, run_message)


def _handshake_and_prepare(server):
    channel = server.channel
    init = channel.recv()
    if init.get("type") != protocol.INIT or init.get("protocol") != protocol.PROTOCOL_VERSION:
        raise protocol.ProtocolViolation(
            "host speaks protocol %r, bridge speaks %d" % (init.get("protocol"), protocol.PROTOCOL_VERSION)
        )
    _ignore_inherited_signals(init["ignored_signals"])
    message = channel.recv()
    if message["type"] in (protocol.COMPILE, protocol.CHECKPOINTS):  # an oracle, or `--explain`
        message = modules.load("aiython_bridge.pre_run_requests").answer_until_run(channel, message)
    if message["type"] != protocol.RUN:
        raise protocol.ProtocolViolation("unexpected %r message before the program runs" % message["type"])
    from aiython_bridge.program.runner import prepare_run

    # From here the reader thread owns the channel once there is one (preparing may ask the host
    # for a plan, which starts it); a run without a model may never need it.
    if _needs_reader(server, message):
        server.start_reader()
    return prepare_run(server, message)


def _needs_reader(server, run_message):
    """The console, or no way to end with the host but the reader's (host_watch.py). With a
    model configured the reader starts at the bridge's first request or pause (a run in which
    nothing fails and nothing is planned has none)."""
    if run_message["target"]["kind"] == "console" or server.role != "main":
        return True
    import sys

    if sys.flags.inspect:
        return True
    from aiython_bridge.boot import HOST_PID
    from aiython_bridge.host_watch import die_with_host

    return not die_with_host(HOST_PID)
