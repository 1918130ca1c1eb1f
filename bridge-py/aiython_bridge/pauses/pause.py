"""Pauses: a thread (or an asyncio task) stopped at an AI block while the host runs the model loop.

A pause sends the host a `pause` message with the request content of SPEC §5.1, then serves
the host's `op` messages on the thread that owns the frame (a blocking wait for threads, loop
callbacks for coroutines, so the event loop keeps running) until a terminal op succeeds:
`finish` (the block's value, type-checked by contracts/), or `fail` (AIError at the block's
line). Recovery pauses (recovery/pause.py, SPEC §4.2) reuse this machinery through
serve()/serve_async() with mode "recovery" and the terminal `recover`. Several pauses may be in
flight at once; each has its own id and inbox, and the reader thread routes messages by that id
(docs/protocol.md). Running and answering one op is ops.py's; what the request says of a block,
block_request.py's.

A pause whose program may write while it waits — other threads of the program are alive, or it
is a coroutine's, whose event loop runs other tasks — says so (`concurrent`), and the host then
draws no spinner, which would land in front of that output. A pause ended by an exception (Ctrl-C)
waits, briefly, for the host's `resume` before the exception goes on: the host erases its
spinner first, so the traceback and the console's prompt are not overwritten.
"""

import _thread
import itertools
import sys
from queue import Empty, SimpleQueue

from aiython_bridge import modules, protocol
from aiython_bridge.errors import AIError
from aiython_bridge.frameops import Invocation, interrupt
from aiython_bridge.pauses.block_request import block_request, expected_type
from aiython_bridge.pauses.ops import Failed, PauseOps

__all__ = [
    "POLL_SECONDS", "Pause", "after_fork_in_child", "end_all", "new_pause_id", "pause_for_block",
    "pause_for_block_async", "route", "serve", "serve_async",
]

_ids = itertools.count(1)
_open_pauses = {}
_registry_lock = _thread.allocate_lock()
POLL_SECONDS = 0.25  # a blocked pause wakes this often so signal handlers (Ctrl-C) can run
RESUME_WAIT_SECONDS = 0.5  # at most this long for the host's `resume` after an interrupted pause


def route(server, message):
    """Reader-thread entry: hand a pause message to its pause, or answer that it has ended."""
    pause = _open_pauses.get(message.get("pause"))
    if message.get("type") == protocol.INTERRUPT:
        if pause is not None:  # served here, on the reader thread: the pause's own thread is busy
            interrupt.interrupt(pause.id)
    elif pause is not None:
        pause.deliver(message)
    elif message.get("type") == protocol.OP:
        server.channel.send({
            "type": protocol.RESULT, "id": message.get("id"), "pause": message.get("pause"), "ok": False,
            "error": {"type": "PauseEnded", "message": "this block has already resumed"},
        })


def new_pause_id():
    return "p%d" % next(_ids)


class Pause(PauseOps):
    mode = "syntax"  # recovery/pause.py's RecoveryPause: "recovery" (SPEC §4.2)
    denied = frozenset()  # permissions the invocation's profile does not grant (`restrict`)
    end_sent = False  # pause_end is sent once
    concurrent = False  # a coroutine's pause: its event loop runs other tasks meanwhile

    def __init__(self, server, info, frame, options):
        self.server = server
        self.info = info
        self.id = new_pause_id()
        self.target = info.get("target")
        self.invocation = Invocation(
            frame, line=info["span"]["line"], project_root=options.get("project_root"),
            context_values=options.get("context_values", True),
        )
        try:
            self.expected, self.schema = expected_type(info, frame)
        except AIError:
            self.invocation.close()
            raise

    def request(self):
        return block_request(self)

    def close(self):
        with _registry_lock:
            _open_pauses.pop(self.id, None)
        self.invocation.close()

    def announce(self, deliver):
        self.deliver = deliver
        with _registry_lock:
            _open_pauses[self.id] = self
        request = self.request()
        mailbox = modules.loaded("aiython_bridge.pauses.mailbox")  # SPEC §8: a joined thread or task
        member = mailbox.current_member() if mailbox is not None else None
        if member is not None:
            request["mailbox"] = {"member": member}
        if self.concurrent or _other_threads(self.server):
            request["concurrent"] = True
        message = {"type": protocol.PAUSE, "pause": self.id, "mode": self.mode, "request": request}
        sources = getattr(self.server, "imported_sources", None)
        if sources:  # what this process imported since its last pause: the journal keeps their digests
            message["modules"] = sources[:]
            del sources[:len(message["modules"])]
        self.server.start_reader()  # the host's ops for this pause come through it
        self.server.channel.send(message)
        if self.server.gone:
            end_all("the run ended before this finished")

    def ended(self, interrupted=False):
        """Sends pause_end once; True when this call sent it."""
        if self.end_sent:  # with the terminal op's result (handle)
            return False
        self.end_sent = True
        try:
            self.server.channel.send(self.end_message(interrupted))
        except OSError:
            return False
        return True

    def end_message(self, interrupted):
        return {"type": protocol.PAUSE_END, "pause": self.id, "interrupted": interrupted}


def _other_threads(server):
    """Whether threads of the program besides the pausing one are alive (the bridge's reader is not
    the program's)."""
    return len(sys._current_frames()) > (2 if getattr(server, "reader_ident", None) is not None else 1)


def _await_resume(pause, inbox):
    """After an interrupted pause's end: the host's `resume`, which it sends once its spinner is
    erased; other messages for the pause are dropped. Never longer than RESUME_WAIT_SECONDS a
    message, nor at all once the host is gone."""
    for _ in range(16):
        if getattr(pause.server, "gone", True):
            return
        try:
            message = inbox.get(timeout=RESUME_WAIT_SECONDS)
        except Empty:
            return
        if message.get("op") == "resume":
            return


def after_fork_in_child():
    """The parent's other threads do not exist in a forked child: neither do their pauses."""
    global _registry_lock
    _registry_lock = _thread.allocate_lock()
    _open_pauses.clear()


def end_all(reason):
    """The host has gone (a child after the run ended): every open pause fails with `reason`."""
    with _registry_lock:
        pauses = list(_open_pauses.values())
    for pause in pauses:
        pause.deliver({"type": protocol.OP, "id": None, "pause": pause.id, "op": "fail", "args": {"reason": reason}})


def _finish(value):
    if isinstance(value, Failed):
        raise value.error
    return value


def pause_for_block(server, info, frame, options):
    return _finish(serve(Pause(server, info, frame, options)))


async def pause_for_block_async(server, info, frame, options):
    return _finish(await serve_async(Pause(server, info, frame, options)))


def serve(pause):
    """Announce `pause` and serve its ops on this thread until a terminal op; its raw value."""
    inbox = SimpleQueue()
    try:
        pause.announce(inbox.put)
        while True:
            try:
                message = inbox.get(timeout=POLL_SECONDS)
            except Empty:
                continue
            done, value = pause.handle(message)
            if done:
                pause.ended()
                break
    except BaseException:
        if pause.ended(interrupted=True):
            _await_resume(pause, inbox)
        raise
    finally:
        pause.close()
    return value


async def serve_async(pause):
    """serve() for a pause in a coroutine: ops run as event-loop callbacks between other tasks."""
    import asyncio

    loop = asyncio.get_running_loop()
    future = loop.create_future()
    pause.concurrent = True

    def on_message(message):  # runs on the event loop's thread, between other tasks' steps
        if future.done():
            return
        try:
            done, value = pause.handle(message)
        except BaseException as exc:  # noqa: BLE001 - delivered to the awaiting task
            future.set_exception(exc)
            return
        if done:
            future.set_result(value)

    try:
        pause.announce(lambda message: loop.call_soon_threadsafe(on_message, message))
        value = await future
        pause.ended()
    except BaseException:
        pause.ended(interrupted=True)
        raise
    finally:
        pause.close()
    return value
