"""The bridge's deciding, out of sight of the program's debugger and profiler (SPEC §2).

A checkpoint handler calls into the bridge, which decides the failure (a consultation, perhaps):
a debugger or profiler the program installed sees the handler's call, not the bridge's work.
"""

import sys

__all__ = ["untraced"]


def untraced(work, *args, _gettrace=sys.gettrace, _settrace=sys.settrace, _getprofile=sys.getprofile,
              _setprofile=sys.setprofile):
    """work(*args) with the program's trace and profile functions set aside: a debugger or a
    profiler the program installed sees the handler's one call, not the bridge deciding. A
    profiler in C (3.11's cProfile) is no function sys.setprofile could put back: it is paused
    with its own disable() and enable(), which keep its settings."""
    tracer, profiler = _gettrace(), _getprofile()
    if tracer is None and profiler is None:
        return work(*args)
    in_c = profiler is not None and not callable(profiler)
    _settrace(None)
    if in_c:
        profiler.disable()
    else:
        _setprofile(None)
    try:
        return work(*args)
    finally:
        _settrace(tracer)
        if in_c:
            profiler.enable()
        else:
            _setprofile(profiler)
