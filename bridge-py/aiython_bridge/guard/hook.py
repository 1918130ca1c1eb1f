"""The audit hook of the source guard, the watches it serves, and whose code an event comes from.

`watching(watch)` puts a Watch on the current thread for the duration of one frame operation
(a nested pause on the same thread puts its own and restores the outer one after), and for the
life of a thread a tool started (patches.py). An event acts for a tool (`acting()`) when its
thread is watched, or when a frame on its stack runs code a tool made: code compiled for
`execute` / `evaluate` (its file name is `<aiython-…>`), code a tool compiled and ran or made a
function of (registered at its `exec` / `function.__new__` event), or the guard's own wrapper
around what a tool set going (a thread, an `atexit` handler). So a function a tool defines and
leaves behind (a patched `builtins.print`, a `threading.Timer`, an `atexit` handler, a trace
hook) acts under the same rule whenever it runs, and clearing the table of watches does not
switch the guard off for the tool's own code. Code acting for a tool after its operation ended
is judged by the run's rule (`deferred`): the project, and writes refused if any operation had
them refused.

The hook looks up the event's check (events.py); the check reads its arguments first and asks
`acting()` only for an action it would refuse. A refusal is recorded on the Watch (so the tool
reports it even when the model's code caught the exception) and raised as GuardError, which stops
the action. It is installed at the first operation (audit hooks cannot be removed); before that
nothing runs at all, and after it plain program code pays three emptiness tests and a context
lookup per audit event while nothing a tool made is alive, and otherwise a dict lookup per event
and a walk of its stack for an action a tool may not take (bench/guard.ts). The table of checks is read-only, and what the hook keys on during an
operation (its thread, the code on its stack) is nothing the tool's code can flip; what it keeps
about code a tool left behind lives in tables only code that walks frames into the bridge could
reach (README "Safety rails" says so).
"""

from __future__ import annotations

import _contextvars
import _thread
import _weakref
import sys
import types

from .. import paths
from ..errors import GuardError
from . import patches, reach
from .events import CHECKS as _EVENT_CHECKS
from .reach import GUARD_CODE
from .refusal import Refusal

__all__ = [
    "CHECKS", "GuardUnavailable", "PROBE_EVENT", "TOOL_FILENAMES", "Watch", "acting", "deferred", "install",
    "register_code", "register_set_going", "watched", "watching",
]

_watches: dict[int, "Watch"] = {}
# Code a tool made and what a tool set going that may still run (hook.acting walks the stack only
# while one lives): id -> a weak reference whose callback takes the entry out when it dies, so an
# id is never taken for another object's.
_tool_codes: dict[int, object] = {}
_set_going: dict[int, object] = {}
_state = {"installed": False}
_install_lock = _thread.allocate_lock()
TOOL_FILENAMES = frozenset(("<aiython-execute>", "<aiython-evaluate>"))
_GUARD_DIR = __file__.rpartition("/")[0] + "/"
# Set while an operation runs: what a tool schedules on an event loop (call_soon, call_later, a
# task) runs in a copy of this context, so it is the tool's doing too.
_TOOL_CONTEXT = _contextvars.ContextVar("aiython_tool")
_BRIDGE_DIR = _GUARD_DIR[:-1].rpartition("/")[0] + "/"
PROBE_EVENT = "aiython.guard.probe"


class GuardUnavailable(Exception):
    """The hook could not be installed (another audit hook refused it); tools must not run."""


class Watch:
    """What the guard knows about one operation: the project root (real path), whether every
    file write is refused (`deny_writes`: the profile lacks write_filesystem), the descriptors no
    tool may close or replace (`keep_fds`: 0–2 and the control channel's), and the refusals so
    far."""

    def __init__(self, project_root: str | None, *, deny_writes: bool = False, keep_fds: tuple[int, ...] = ()):
        self.project_root = project_root
        self.deny_writes = deny_writes
        self.keep_fds = frozenset((0, 1, 2, *keep_fds))
        self.refusals: list[Refusal] = []
        self.module_files: frozenset[str] | None = None
        self.probed = False

    def copy(self) -> "Watch":
        """The same rule for what this operation sets going (its refusals are not this one's)."""
        return Watch(self.project_root, deny_writes=self.deny_writes, keep_fds=tuple(self.keep_fds))


# What a tool's code left behind is judged by when it runs after its operation (see the header).
deferred = Watch(None)


class _Watching:
    def __init__(self, watch: Watch):
        self.watch = watch
        self.outer = None
        self.token = None

    def __enter__(self) -> Watch:
        install()
        if deferred.project_root is None:
            deferred.project_root = self.watch.project_root
        deferred.deny_writes = deferred.deny_writes or self.watch.deny_writes
        deferred.keep_fds = deferred.keep_fds | self.watch.keep_fds
        ident = _thread.get_ident()
        self.outer = _watches.get(ident)
        _watches[ident] = self.watch
        self.token = _TOOL_CONTEXT.set(self.watch)
        return self.watch

    def __exit__(self, *exc_info):
        _TOOL_CONTEXT.reset(self.token)
        ident = _thread.get_ident()
        if self.outer is None:
            _watches.pop(ident, None)
        else:
            _watches[ident] = self.outer
        return False


def watching(watch: Watch) -> _Watching:
    """A `with` block during which the current thread's audited actions are checked."""
    return _Watching(watch)


def watched() -> Watch | None:
    """The current thread's Watch, if it runs a tool's operation (or a thread a tool started)."""
    return _watches.get(_thread.get_ident())


def acting(_getframe=sys._getframe, _names=TOOL_FILENAMES, _codes=_tool_codes, _guard_code=GUARD_CODE,
           _bridge=_BRIDGE_DIR, _guard=_GUARD_DIR, _context=_TOOL_CONTEXT) -> Watch | None:
    """The Watch the current event is judged by, or None (the program's own code, or the
    bridge's). Walking up the stack from the event:
    - a frame of a tool's code (or of what a tool set going) comes first: the event is the
      tool's, judged by its thread's Watch, else its context's (an asyncio callback or task the
      tool scheduled), else the deferred one;
    - a frame of the bridge comes first, with no frame of the program's own files above it: the
      bridge's own work during an operation (its preparation cache when a tool imports a project
      module, its ctypes call that writes a frame's locals back), not the tool's doing;
    - otherwise (nothing of a tool's, or the program's code running on the bridge's runner) the
      thread's Watch while an operation runs on it, else the context's, else None."""
    watch = _watches.get(_thread.get_ident())
    if watch is None:
        watch = _context.get(None)
        if watch is None and not _codes and not _set_going:
            return None  # nothing a tool made is alive: the program's own code, at no cost
    frame = _getframe(1)
    program = False
    root = deferred.project_root
    while frame is not None:
        code = frame.f_code
        filename = code.co_filename
        if filename in _names or code is _guard_code or id(code) in _codes:
            return watch if watch is not None else deferred
        if filename.startswith(_bridge) and not filename.startswith(_guard):
            if not program:
                return None
            break
        if not program and root is not None and filename.startswith(root):
            program = paths.kind(filename, root) == paths.PROJECT
        frame = frame.f_back
    return watch


def register_code(code) -> None:
    """A code object a tool made (and the functions, classes and lambdas inside it)."""
    pending = [code]
    while pending:
        current = pending.pop()
        key = id(current)
        if key not in _tool_codes:
            _tool_codes[key] = _weakref.ref(current, lambda _, key=key: _tool_codes.pop(key, None))
            pending.extend(const for const in current.co_consts if type(const) is type(current))


def register_set_going(function) -> None:
    """A function standing for what a tool set going (reach.under_guard), while it lives."""
    key = id(function)
    _set_going[key] = _weakref.ref(function, lambda _, key=key: _set_going.pop(key, None))


def install() -> None:
    if _state["installed"]:
        return
    with _install_lock:
        if not _state["installed"]:
            _add_hook()


def _add_hook() -> None:
    sys.addaudithook(_hook)
    # An existing hook may refuse new hooks (sys.addaudithook then adds nothing, silently): the
    # probe event reaches our hook only if it was added, and only on a watched thread.
    probe = Watch(None)
    ident = _thread.get_ident()
    _watches[ident] = probe
    try:
        sys.audit(PROBE_EVENT)
    finally:
        del _watches[ident]
    if not probe.probed:
        raise GuardUnavailable("the program's own audit hook refused the source guard, so no tool can run safely")
    _state["installed"] = True
    patches.prepare()


def _probed(args, acting):
    watch = watched()
    if watch is not None:
        watch.probed = True
    return None


# A read-only view: the table the hook was made with is not reachable to change.
CHECKS = types.MappingProxyType({**_EVENT_CHECKS, PROBE_EVENT: _probed})


def _hook(event, args, _checks=CHECKS, _acting=acting, _watches=_watches, _codes=_tool_codes, _going=_set_going,
          _context=_TOOL_CONTEXT.get):
    # No operation runs, nothing a tool made is alive and no tool's context is in force: the
    # program's own event, which is all most of them cost.
    if not _watches and not _codes and not _going and _context(None) is None:
        return
    check = _checks.get(event)
    if check is None:
        return
    try:
        refusal = check(args, _acting)
    except Exception as exc:  # a tool's action the guard cannot judge does not happen (fails closed)
        try:
            watch = _acting()
        except Exception:
            watch = None
        if watch is None:
            return
        refusal = Refusal(watch, "source", f"{event} could not be checked ({type(exc).__name__}), so it was refused")
    if refusal is not None:
        if not refusal.quiet:
            refusal.watch.refusals.append(refusal)
        raise GuardError(refusal.message)


reach.HOOK = patches.HOOK = sys.modules[__name__]
