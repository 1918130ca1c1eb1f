"""The frames around a failing checkpoint (SPEC §4.2): whose handler sees it first, whom a retry replays.

The model is consulted only for an exception nothing on the stack would handle. Walking the
callers from the failing frame, the failure is left to the program when:
- a project frame's current line is inside a user `try` or `with` body (ranges registered when
  the module was instrumented, else computed from the AST): SPEC §4.2 leaves those to the user;
- a library frame would handle it (handlers.py: its `try` clauses and `with` managers);
- a bridge frame other than the boot script's is reached (the code runs inside a tool call of
  another pause);
- an asyncio task's step is reached and someone waits for the task (another task's `await`,
  `gather`, `wait_for`, a done callback): the exception goes to them. When only
  `run_until_complete` waits (the task of `asyncio.run`), the exception comes out of that call,
  so the walk goes on above it.
The walk ends, with the failure unhandled, at the program's top (the boot script), a thread's
bootstrap (`Thread._bootstrap_inner`: its catch-all is where a thread's exception ends, not a
handler), a multiprocessing Process's bootstrap (the same, in a child process; a pool's or
executor's worker loop hands the exception to the parent instead, as a thread pool's does), a task nobody waits for, or an event-loop callback's end.

`retry` is offered only if the traceback below the checkpoint's frame passes through no other
project frame (code objects defined inside the statement itself, such as comprehensions and
lambdas, are part of it): retrying would run that function's effects again.

Whose code a file is comes from paths.py; a file this runtime instrumented is project code
whatever paths.py says. Each file's source is parsed at most once.
"""

from __future__ import annotations

import os
import sys

from .. import modules, paths
from ..paths import BRIDGE, PROJECT
from .handlers import HandlerIndex, parse_source

__all__ = ["Callers"]

_BOOT_FUNCTION = "<module>"  # start/importlib_bootstrap.py: the frame the program runs on
_UNHANDLED, _HANDLED, _CONTINUE = "unhandled", "handled", "continue"


def _stdlib_file(filename: str, *parts: str) -> bool:
    """A library file with this path's ending (the kind check before it rules out the project's)."""
    return filename.endswith(os.sep + os.path.join(*parts))


class Callers:
    """One runtime's view of the stack: the files it instrumented, their try/with body ranges, and
    what the library frames' handlers are, each read once."""

    def __init__(self, project_root: str | None):
        self.project_root = project_root
        self._registered: set[str] = set()
        self._ranges: dict[str, list] = {}
        self._handlers = HandlerIndex()
        # Code of frames that run the program besides the boot script (a test harness's): the top.
        self.top_codes: set = set()

    def register(self, filename: str, ranges) -> None:
        """An instrumented file and its try/with body ranges (computed before instrumenting)."""
        self._ranges[filename] = sorted([int(a), int(b)] for a, b in ranges)
        self._registered.add(filename)

    def kind(self, filename: str) -> str:
        return PROJECT if filename in self._registered else paths.kind(filename, self.project_root)

    def caller_sees_first(self, frame, exc) -> bool:
        """Whether a calling frame would handle `exc` (module docstring)."""
        caller = frame.f_back
        while caller is not None:
            verdict = self._verdict(caller, exc)
            if verdict is not _CONTINUE:
                return verdict is _HANDLED
            caller = caller.f_back
        return False

    def _verdict(self, frame, exc) -> str:
        code = frame.f_code
        if self.top_codes and code in self.top_codes:  # a set hashes the code first (3.12+: its whole bytecode)
            return _UNHANDLED
        filename = code.co_filename
        kind = self.kind(filename)
        if kind == BRIDGE:
            return _UNHANDLED if code.co_name == _BOOT_FUNCTION and frame.f_back is None else _HANDLED
        if kind == PROJECT:
            line = frame.f_lineno
            return _HANDLED if line is not None and _inside(self._project_ranges(filename, frame), line) else _CONTINUE
        if code.co_name == "_bootstrap_inner" and _stdlib_file(filename, "threading.py"):
            return _UNHANDLED
        if code.co_name == "_bootstrap" and _stdlib_file(filename, "multiprocessing", "process.py"):
            return _UNHANDLED  # a Process's catch-all prints the traceback and exits 1, as a thread's
        if code.co_name == "_run" and _stdlib_file(filename, "asyncio", "events.py"):
            return self._running_task_verdict(exc)
        return _HANDLED if self._handlers.frame_handles(frame, exc) else _CONTINUE

    # ---- asyncio: who gets a task's exception ----

    def _running_task_verdict(self, exc) -> str:
        """At an event-loop callback's end (asyncio's Handle._run): the running task's exception
        goes to whoever waits for it. No task (a plain callback) or nobody waiting: it ends here."""
        asyncio = sys.modules.get("asyncio")
        try:
            task = asyncio.current_task() if asyncio is not None else None
        except RuntimeError:
            task = None
        return _UNHANDLED if task is None else self._future_verdict(task, exc, depth=0)

    def _future_verdict(self, future, exc, depth: int) -> str:
        callbacks = [callback for callback, _context in (getattr(future, "_callbacks", None) or ())]
        if not callbacks:
            return _UNHANDLED
        if depth > 16:
            return _HANDLED  # a chain this long: do not guess
        verdicts = {self._callback_verdict(callback, exc, depth) for callback in callbacks}
        for verdict in (_HANDLED, _CONTINUE):
            if verdict in verdicts:
                return verdict
        return _UNHANDLED

    def _callback_verdict(self, callback, exc, depth: int) -> str:
        name = getattr(callback, "__name__", "")
        if name == "_run_until_complete_cb":
            return _CONTINUE  # it comes out of run_until_complete: the walk goes on above it
        if name in ("task_wakeup", "_Task__wakeup"):
            return self._awaiting_task_verdict(callback.__self__, exc, depth)
        if name == "_done_callback" and getattr(callback, "__qualname__", "").startswith("gather."):
            closure = dict(zip(callback.__code__.co_freevars, (cell.cell_contents for cell in callback.__closure__ or ())))
            if closure.get("return_exceptions", True) or "outer" not in closure:
                return _HANDLED  # the exception becomes one of gather's results
            return self._future_verdict(closure["outer"], exc, depth + 1)
        return _HANDLED  # a callback of the program's or of another part of asyncio: it takes it

    def _awaiting_task_verdict(self, task, exc, depth: int) -> str:
        """The exception is raised in `task` at its `await`: its suspended frames decide, from the
        innermost coroutine out, then whoever waits for that task."""
        for frame in reversed(_suspended_frames(task)):
            verdict = self._verdict(frame, exc)
            if verdict is not _CONTINUE:
                return verdict
        return self._future_verdict(task, exc, depth + 1)

    def through_other_project_frame(self, frame, exc, checkpoint) -> bool:
        tb = exc.__traceback__
        first, last = checkpoint.span["line"], checkpoint.span["end_line"]
        while tb is not None:
            code = tb.tb_frame.f_code
            if tb.tb_frame is not frame and self.kind(code.co_filename) == PROJECT:
                inside_statement = code.co_filename == checkpoint.filename and first <= code.co_firstlineno <= last
                if not inside_statement:
                    return True
            tb = tb.tb_next
        return False

    def _project_ranges(self, filename, frame) -> list:
        ranges = self._ranges.get(filename)
        if ranges is None:
            protected_ranges = modules.load("aiython_bridge.recovery.selection").protected_ranges
            tree = parse_source(filename, frame)
            ranges = self._ranges[filename] = protected_ranges(tree) if tree is not None else []
        return ranges


def _suspended_frames(task) -> list:
    """The frames of a suspended task, outermost first: its coroutine and those it awaits."""
    frames, awaitable = [], task.get_coro()
    while awaitable is not None and len(frames) < 256:
        frame = getattr(awaitable, "cr_frame", None) or getattr(awaitable, "gi_frame", None)
        if frame is None:
            break
        frames.append(frame)
        awaitable = getattr(awaitable, "cr_await", None) or getattr(awaitable, "gi_yieldfrom", None)
    return frames


def _inside(ranges, line) -> bool:
    for start, end in ranges:
        if start <= line <= end:
            return True
    return False
