"""How far the source guard reaches (SPEC §9): what would let a tool's code act outside it, and
what it records so that what a tool sets going stays under it.

Refused in a tool, each with an audit event of its own:
- ctypes: looking up a foreign function (`ctypes.dlsym`: libc's `system` or `unlink`), an
  object at a raw address (`ctypes.cdata`), `_ctypes.call_function`: through them a tool's code
  would start processes and change files with no audit event at all;
- gc: `gc.get_objects`, `gc.get_referrers`, `gc.get_referents`, which reach every object, the
  guard's own included;
- setting `__code__`, `__defaults__` or `__kwdefaults__` of a function of the bridge;
- a raw `_thread` start of anything but a threading.Thread (3.12+, which have its event).
Recorded, so that `hook.acting()` knows them later:
- a threading.Thread a tool starts: its `run` becomes `under_guard(run)`, which runs under a
  Watch of its own for the thread's whole life (3.12+ from the start event; 3.11 has none, and
  patches.py stands in for the start functions there);
- code a tool makes: the code object of an `exec` and of `function.__new__` on a tool's thread
  (`compile()` then `exec()`, `types.FunctionType`), with every code object inside it.
`quietly_refused()` tells the import system's own bytecode-cache write (importlib's
`_write_atomic`) from a tool's: importlib gives up on the cache without a word, as with a
read-only folder, and the tool is not blamed for the import it asked for.
"""

from __future__ import annotations

import sys

from .. import paths
from .refusal import Refusal

__all__ = ["CHECKS", "GUARD_CODE", "HOOK", "quietly_refused", "thread_start_refusal", "thread_started", "under_guard"]

_WRITE_ATOMIC = getattr(sys.modules.get("_frozen_importlib_external"), "_write_atomic", None)
_WRITE_ATOMIC_CODE = getattr(_WRITE_ATOMIC, "__code__", None)
_GUARD_DIR = __file__.rpartition("/")[0]
_BRIDGE_DIR = _GUARD_DIR.rpartition("/")[0]


HOOK = None  # hook.py, set once it is loaded (no import runs later: modules.py hides the bridge's)


def under_guard(watch, function, args=(), kwargs=None):
    """`function` bound to `args`, run under `watch` whenever it is called (what a tool set going)."""

    def run_under_guard(*more, **more_kwargs):
        with HOOK.watching(watch):
            return function(*args, *more, **(kwargs or {}), **more_kwargs)

    if HOOK is not None:
        HOOK.register_set_going(run_under_guard)
    return run_under_guard


GUARD_CODE = under_guard(None, None).__code__  # the code of every run_under_guard: a tool's, for hook.acting()


def quietly_refused(_getframe=sys._getframe) -> bool:
    """The write comes from importlib's `_write_atomic` (the first frame outside the guard)."""
    frame = _getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_GUARD_DIR):
        frame = frame.f_back
    return frame is not None and _WRITE_ATOMIC_CODE is not None and frame.f_code is _WRITE_ATOMIC_CODE


def _refuse(what, why):
    def check(args, acting):
        watch = acting()
        if watch is None:
            return None
        return Refusal(watch, "reach", f"the source guard refused {what(args)}: {why}")
    return check


_CTYPES = "through ctypes a tool's code would start processes and change files unseen; do it in Python in the frame"
_GC = "it would reach every object, the guard's own included; keep to the frame's names and handles"


def _set_function_attribute(args, acting):
    target, name = args[0], args[1]
    if name not in ("__code__", "__defaults__", "__kwdefaults__") or type(target).__name__ != "function":
        return None
    filename = target.__code__.co_filename
    if not (filename.startswith(_BRIDGE_DIR) or any(filename.startswith(d) for d in paths.BRIDGE_DIRS)):
        return None
    return _refuse(lambda a: f"setting {name} of one of aiython's own functions", "the guard's functions are not the program's")(args, acting)


def _thread_start(args, acting):
    watch = acting()
    return None if watch is None else thread_start_refusal(watch, args[0])


def thread_start_refusal(watch, function):
    """None for a threading.Thread (now under a Watch of its own) or the guard's own wrapper."""
    owner = getattr(function, "__self__", None)
    threading = sys.modules.get("threading")
    if threading is not None and isinstance(owner, threading.Thread) and getattr(function, "__name__", "") == "_bootstrap":
        thread_started(watch, owner)
        return None
    if getattr(function, "__code__", None) is GUARD_CODE:
        return None
    return Refusal(watch, "reach", "the source guard refused starting a raw thread (_thread): start threads with threading.Thread, "
                   "whose code stays under the guard")


def thread_started(watch, thread) -> None:
    """A threading.Thread a tool starts runs its `run` under a Watch of its own."""
    if getattr(thread.run, "__code__", None) is not GUARD_CODE:
        thread.run = under_guard(watch.copy(), thread.run)


def _register(args, acting, _getframe=sys._getframe, _code_type=type(GUARD_CODE)):
    """Code compiled for a tool (`<aiython-…>`, which the bridge runs), and code a tool's thread
    runs or makes a function of, unless the import system or the bridge does (a module a tool
    imports is the program's, not the tool's)."""
    code = args[0]
    if type(code) is not _code_type:
        return None
    if code.co_filename in HOOK.TOOL_FILENAMES:
        HOOK.register_code(code)
        return None
    if HOOK.watched() is None:
        return None
    frame = _getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_GUARD_DIR):
        frame = frame.f_back
    caller = frame.f_code.co_filename if frame is not None else ""
    if not (caller.startswith("<frozen importlib") or caller.startswith(_BRIDGE_DIR)):
        HOOK.register_code(code)
    return None


CHECKS = {
    "ctypes.dlsym": _refuse(lambda a: f"looking up the foreign function {a[1]!r} (ctypes)", _CTYPES),
    "ctypes.dlsym/handle": _refuse(lambda a: f"looking up the foreign function {a[1]!r} (ctypes)", _CTYPES),
    "ctypes.cdata": _refuse(lambda a: "making a ctypes object at a raw address", _CTYPES),
    "ctypes.call_function": _refuse(lambda a: "calling a foreign function by address (ctypes)", _CTYPES),
    "gc.get_objects": _refuse(lambda a: "gc.get_objects()", _GC),
    "gc.get_referrers": _refuse(lambda a: "gc.get_referrers()", _GC),
    "gc.get_referents": _refuse(lambda a: "gc.get_referents()", _GC),
    "object.__setattr__": _set_function_attribute,
    "_thread.start_new_thread": _thread_start,
    "_thread.start_joinable_thread": _thread_start,
    "exec": _register,
    "function.__new__": _register,
}
