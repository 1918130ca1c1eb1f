"""The program's first frame has nothing below it, as under python3 (SPEC §2: fidelity).

The program runs from the boot script (start/importlib_bootstrap.py), so its module frame would
have that frame below it: `sys._getframe().f_back` at module level, an extra first entry in
`traceback.print_stack()`, `inspect.stack()` and `logging`'s `stack_info`, and less room for
recursion ("Previous line repeated 994 more times" where python3 says 996).

`alone(program)` wraps the program's callable in C callables only (`any`, `map`,
`_operator.call`): they first call `_cut()`, a Python function called from C, which

- unlinks the boot script's frame from the frames started after it: the interpreter links a
  frame entered from C to its thread's "current frame" (3.11 and 3.12: the `current_frame` of the
  `_PyCFrame` below, which the interpreter allows to be NULL; 3.13: the thread's, restored from
  the C entry frame's `previous` link when `_cut` returns), and `_cut` sets that link to NULL;
  the program's frames then end where python3's do, while the boot script's own code goes on
  running from its own C local (its next call or return sets the link again);
- gives the thread's recursion counter back what the frames below the program take (the boot
  script's frame, and on 3.11 the C levels of `exec`): the program recurses as deep as under
  python3, and `sys.getrecursionlimit()` and `sys.setrecursionlimit()` keep python3's answers.

Then the program runs, from C, with nothing of the bridge's below it. The fields are those of
CPython's headers (cpython/pystate.h, internal/pycore_frame.h) on 64-bit builds of 3.11 to 3.13
with the GIL; each pointer is checked against what it must point to before anything is written,
and anywhere else (another version, build or platform, `_ctypes` missing) the program runs as
before, on the boot script's frame.
"""

import sys

__all__ = ["alone"]

# Offsets in bytes, by (major, minor): the thread state's recursion counter (its limit is the next
# int), its `cframe` pointer (None on 3.13, which has none), `_PyCFrame.current_frame` and
# `.previous`, and `_PyInterpreterFrame.previous` and `.frame_obj`. PyFrameObject.f_frame is at 24.
_LAYOUTS = {
    (3, 11): {"remaining": 32, "cframe": 56, "current": 8, "outer": 16, "previous": 48, "frame_obj": 40},
    (3, 12): {"remaining": 28, "cframe": 56, "current": 0, "outer": 8, "previous": 8, "frame_obj": 48},
    (3, 13): {"remaining": 44, "cframe": None, "current": None, "outer": None, "previous": 8, "frame_obj": 48},
}
_F_FRAME = 24
# The levels the recursion counter has below the program's first frame beyond those below
# `_cut`'s own: 3.11 counts C calls too, and the program is entered one C call deeper (`exec`'s
# own entry into the interpreter; runpy's partial, which has a keyword, through its tp_call).
_MORE_LEVELS = {(3, 11): 1, (3, 12): 0, (3, 13): 0}


def alone(program):
    """`program` (a partial of exec or of runpy) wrapped so that it runs with no frame below its
    first one, or `program` itself where this build's layout is not known."""
    access = _access()
    if access is None:
        return program
    from _functools import partial
    from _operator import call

    levels = _MORE_LEVELS[sys.version_info[:2]]
    return partial(any, map(call, (partial(_cut, access, levels), program)))


def _access():
    """(pointer type, int type, the thread state's getter, layout), or None."""
    layout = _LAYOUTS.get(tuple(sys.version_info[:2]))
    if layout is None or sys.maxsize != 2**63 - 1 or sys.platform == "win32" or "d" in sys.abiflags or "t" in sys.abiflags:
        return None
    try:
        import _ctypes

        class Pointer(_ctypes._SimpleCData):
            _type_ = "P"

        class Int(_ctypes._SimpleCData):
            _type_ = "i"

        class ApiFunction(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_PYTHONAPI
            _restype_ = Pointer
            _argtypes_ = ()

        thread_state = ApiFunction(_ctypes.dlsym(_ctypes.dlopen(None, 0), "PyThreadState_Get"))
    except (ImportError, AttributeError, OSError):
        return None
    return Pointer, Int, thread_state, layout


def _cut(access, levels):
    """Unlinks the caller's frame (the boot script's) from the frames started next, and gives
    the recursion counter back the levels below the program. Called from C (alone()); reads
    through no Python function of its own, which would change the links it checks."""
    try:
        Pointer, Int, thread_state, layout = access
        me = sys._getframe()
        boot = me.f_back
        mine = Pointer.from_address(id(me) + _F_FRAME).value
        below = Pointer.from_address(id(boot) + _F_FRAME).value
        if Pointer.from_address(mine + layout["frame_obj"]).value != id(me) or Pointer.from_address(below + layout["frame_obj"]).value != id(boot):
            return
        state = thread_state()
        if layout["cframe"] is None:
            # 3.13: the C entry frame below ours links to the boot script's frame.
            link = Pointer.from_address(Pointer.from_address(mine + layout["previous"]).value + layout["previous"])
        else:
            # 3.11, 3.12: our _PyCFrame is the thread's; the one before it is the boot script's.
            ours = Pointer.from_address(state + layout["cframe"]).value
            if Pointer.from_address(ours + layout["current"]).value != mine:
                return
            link = Pointer.from_address(Pointer.from_address(ours + layout["outer"]).value + layout["current"])
        if link.value != below:
            return
        remaining = Int.from_address(state + layout["remaining"])
        limit = Int.from_address(state + layout["remaining"] + 4).value
        if limit != sys.getrecursionlimit():
            return
        # Our frame stands where the program's first frame will (both called from C on the boot
        # script's), plus `levels`; python3's first frame is at depth 1.
        depth = limit - remaining.value + levels
        link.value = None
        remaining.value += depth - 1
    except Exception:  # noqa: BLE001 - the program runs as before, on the boot script's frame
        pass
