"""The program's first frame has nothing below it, as under python3 (SPEC §2: fidelity).

The program runs from the boot script (start/importlib_bootstrap.py), so its module frame would
have that frame below it: `sys._getframe().f_back` at module level, an extra first entry in
`traceback.print_stack()`, `inspect.stack()` and `logging`'s `stack_info`, and less room for
recursion ("Previous line repeated 994 more times" where python3 says 996).

`alone(program)` wraps the program's callable in C callables only (`tuple`, `map`,
`_operator.call`): they first call `_cut()`, a Python function called from C, which

- unlinks the boot script's frame from the frames started after it: the interpreter links a
  frame entered from C to its thread's "current frame" (3.11 and 3.12: the `current_frame` of the
  `_PyCFrame` below, which the interpreter allows to be NULL; 3.13: the thread's, restored from
  the C entry frame's `previous` link when `_cut` returns), and `_cut` sets that link to NULL;
  the program's frames then end where python3's do;
- gives the thread's recursion counter back what the frames below the program take (the boot
  script's frame, and on 3.11 the C levels of `exec`): the program recurses as deep as under
  python3, and `sys.getrecursionlimit()` and `sys.setrecursionlimit()` keep python3's answers.

When the program returns, `_relink()` puts both back, so the boot script's own code goes on as
before (when it raises, the boot script's `with` calls its `__exit__`, whose frame the
interpreter links anew, and the counter's levels are the thread's to keep, as at its end).

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
    cut = []  # what _cut changed, for _relink: (the link's value, the levels given back)
    return partial(tuple, map(call, (partial(_cut, access, levels, cut), program, partial(_relink, access, cut))))


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


def _cut(access, levels, cut):
    """Unlinks the caller's frame (the boot script's) from the frames started next, and gives
    the recursion counter back the levels below the program. Called from C (alone())."""
    try:
        Pointer, Int, thread_state, layout = access
        me = sys._getframe()
        boot = me.f_back
        below = Pointer.from_address(id(boot) + _F_FRAME).value
        link = _caller_link(access, me)
        if link is None or link.value != below or Pointer.from_address(below + layout["frame_obj"]).value != id(boot):
            return
        remaining = Int.from_address(thread_state() + layout["remaining"])
        limit = Int.from_address(thread_state() + layout["remaining"] + 4).value
        if limit != sys.getrecursionlimit():
            return
        # Our frame stands where the program's first frame will (both called from C on the boot
        # script's), plus `levels`; python3's first frame is at depth 1.
        given = limit - remaining.value + levels - 1
        link.value = None
        remaining.value += given
        cut.append((below, given))
    except Exception:  # noqa: BLE001 - the program runs as before, on the boot script's frame
        pass


def _relink(access, cut):
    """After the program: the boot script's link and the counter as they were. Called from C."""
    try:
        if not cut:
            return
        below, given = cut.pop()
        link = _caller_link(access, sys._getframe())
        if link is not None and link.value is None:
            link.value = below
            remaining = access[1].from_address(access[2]() + access[3]["remaining"])
            remaining.value -= given
    except Exception:  # noqa: BLE001 - the boot script ends as it would have
        pass


def _caller_link(access, frame):
    """The link to the frame below `frame`, a function's called from C that calls this one: a
    pointer object over it, or None when a field is not what it must be. Reads through no other
    Python function, which would change the links it checks."""
    Pointer, _, thread_state, layout = access
    called = Pointer.from_address(id(frame) + _F_FRAME).value
    if Pointer.from_address(called + layout["frame_obj"]).value != id(frame):
        return None
    if layout["cframe"] is None:
        # 3.13: the C entry frame below `frame` links to the frame it was entered from.
        return Pointer.from_address(Pointer.from_address(called + layout["previous"]).value + layout["previous"])
    # 3.11, 3.12: this call and `frame` share the thread's _PyCFrame; the one before it is the caller's.
    here = sys._getframe()
    ours = Pointer.from_address(thread_state() + layout["cframe"]).value
    if Pointer.from_address(ours + layout["current"]).value != Pointer.from_address(id(here) + _F_FRAME).value:
        return None
    return Pointer.from_address(Pointer.from_address(ours + layout["outer"]).value + layout["current"])
