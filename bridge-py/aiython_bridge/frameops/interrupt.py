"""Interrupting a tool that outlives its time (SPEC §9): the host sends `interrupt` for the op a
pause is running, and the thread running it gets ToolInterrupted, which pauses/ops.py answers as
the tool error `ToolInterrupted`.

Two routes, by thread:
- the main thread (most blocks, and an event loop's ops): a real-time signal sent to that thread
  alone (`pthread_kill`), whose Python handler, installed only while the op runs, raises. The
  signal also ends a blocking call (`time.sleep`, a socket read, `input()`, a lock wait): CPython
  retries those after EINTR only when no handler raised (PEP 475);
- any other thread: an asynchronous exception (`PyThreadState_SetAsyncExc`), which CPython raises
  at the thread's next bytecode. A blocking call on such a thread cannot be cut short: it is
  raised when the call returns (README "Safety rails").

Code that catches BaseException and goes on is sent the interruption again every
REPEAT_SECONDS while the op runs. One lock orders sending against the op's end: nothing is sent
once `running()` has ended, and an asynchronous exception still pending then is withdrawn, so the
bridge's own code after the op is never interrupted.
"""

from __future__ import annotations

import _signal
import _thread
import sys

__all__ = ["MAX_REPEATS", "REPEAT_SECONDS", "SIGNAL", "ToolInterrupted", "interrupt", "running"]

# A real-time signal no library of CPython's uses; its default action (ending the process) is
# never in force while it can arrive: the handler is in place for the op, and a signal sent
# during it is consumed before the handler is taken away (_drain).
SIGNAL = getattr(_signal, "SIGRTMAX", 64) - 3
REPEAT_SECONDS = 1.0
MAX_REPEATS = 30

_lock = _thread.allocate_lock()
_targets: dict[str, "_Target"] = {}


class ToolInterrupted(BaseException):
    """Raised in a tool's code when the host interrupts it (a BaseException, so that the
    program's `except Exception` does not swallow it)."""


class _Target:
    __slots__ = ("ident", "main", "sent", "done")

    def __init__(self, ident: int, main: bool):
        self.ident = ident
        self.main = main
        self.sent = 0
        self.done = False


_main_target: list[_Target | None] = [None]


def _on_signal(signum, frame):
    target = _main_target[0]
    if target is not None and target.sent and not target.done:
        raise ToolInterrupted("the tool was interrupted: it ran past its time")


class running:
    """`with running(key):` around one op on the thread that runs it; `interrupt(key)` from
    another thread then interrupts it. Ops of one pause run one at a time, so `key` is the
    pause's id."""

    def __init__(self, key: str):
        self.key = key
        self.target: _Target | None = None
        self.previous = None

    def __enter__(self):
        ident = _thread.get_ident()
        main = False
        try:
            self.previous = _signal.getsignal(SIGNAL)
            _signal.signal(SIGNAL, _on_signal)
            main = True
        except ValueError:  # not the main thread: only the main thread may set handlers
            pass
        target = self.target = _Target(ident, main)
        with _lock:
            _targets[self.key] = target
            if main:
                _main_target[0] = target
        return self

    def __exit__(self, *exc_info):
        target = self.target
        with _lock:
            target.done = True
            if _targets.get(self.key) is target:
                del _targets[self.key]
            if not target.main and target.sent:
                _async_exception(target.ident, None)
        if target.main:
            if target.sent:
                _drain()
            _main_target[0] = None
            _signal.signal(SIGNAL, self.previous if self.previous is not None else _signal.SIG_DFL)
        return False


def _drain():
    """Consumes a signal sent just before the op ended, before its handler is taken away."""
    try:
        _signal.pthread_sigmask(_signal.SIG_BLOCK, (SIGNAL,))
        try:
            while _signal.sigtimedwait((SIGNAL,), 0) is not None:
                pass
        finally:
            _signal.pthread_sigmask(_signal.SIG_UNBLOCK, (SIGNAL,))
    except (AttributeError, OSError, ValueError):
        pass


def interrupt(key: str) -> bool:
    """Interrupts the op running under `key` (now, and again while it keeps running); False when
    none runs."""
    if not _send(key):
        return False
    _thread.start_new_thread(_repeat, (key,))
    return True


def _send(key: str) -> bool:
    with _lock:
        target = _targets.get(key)
        if target is None or target.done:
            return False
        target.sent += 1
        if target.main:
            _signal.pthread_kill(target.ident, SIGNAL)
        else:
            _async_exception(target.ident, ToolInterrupted)
        return True


def _repeat(key: str) -> None:
    pause = _thread.allocate_lock()
    pause.acquire()
    for _ in range(MAX_REPEATS):
        pause.acquire(timeout=REPEAT_SECONDS)
        if not _send(key):
            return


_set_async = []


def _async_exception(ident: int, exception) -> None:
    """PyThreadState_SetAsyncExc: `exception` raised in thread `ident` at its next bytecode (None
    withdraws one still pending). The only use of ctypes in the bridge, loaded at the first use."""
    if not _set_async:
        before = set(sys.modules)
        import ctypes

        function = ctypes.pythonapi.PyThreadState_SetAsyncExc
        function.argtypes = (ctypes.c_ulong, ctypes.c_void_p)
        function.restype = ctypes.c_int
        _set_async.append(function)
        for name in set(sys.modules) - before:  # the program imports its own ctypes, as under python3
            sys.modules.pop(name, None)
    _set_async[0](ident, None if exception is None else id(exception))
