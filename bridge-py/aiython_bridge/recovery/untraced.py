"""The bridge's deciding, out of sight of the program's debugger and profiler (SPEC §2).

A checkpoint handler calls into the bridge, which decides the failure (a consultation, perhaps):
a debugger or profiler the program installed sees the handler's call, not the bridge's work.
Set aside while it runs: the trace and profile functions (sys.settrace, sys.setprofile), and a
profiler in C that sys.setprofile could not put back (3.11's cProfile), with its own disable()
and enable(), which keep its settings. sys.monitoring's tools (3.12+'s cProfile) are left as
they are: pausing their events and putting them back makes cProfile count the program's calls
wrongly, where left alone it counts them right and lists the bridge's beside them.
"""

import sys

__all__ = ["untraced"]


def untraced(work, *args, _gettrace=sys.gettrace, _settrace=sys.settrace, _getprofile=sys.getprofile,
             _setprofile=sys.setprofile):
    """work(*args) with the program's tracers and profilers set aside."""
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
