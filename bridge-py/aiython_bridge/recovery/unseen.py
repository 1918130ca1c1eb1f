"""The handlers' calls, out of sight of the program's tracers, profilers and monitoring tools (SPEC §2).

A checkpoint's handler calls `R.retry(K)`, `R.raising(K)`, … on its file's handler object R
(instrument.py). A Python function called there would be seen by the program's `sys.settrace`
and `sys.setprofile` functions (pdb, bdb, `-m trace`, `-m profile`, 3.11's cProfile) and, on
3.12+, by `sys.monitoring` tools (3.12's cProfile, coverage): a call python3 never makes.
So each of those names is a property (`handler_call`) whose getter is built of C callables
only — endless iterators over the `sys` functions, composed with map and zip — and looking it
up runs no Python frame and reports nothing:

- with no trace or profile function set and no monitoring tool registered, the lookup gives the
  handler object's own method (`direct`): nothing watches;
- otherwise it sets the trace and profile functions aside (kept in `_SET_ASIDE` with the
  thread), pauses the tools' events, puts `_hook` in as the profile function and gives a small
  function of its own (`_NUDGE`). Calling that function is the hook's first event: the hook does
  the handler's work there, inside a profile callback, where CPython reports nothing to any
  tracer, profiler or tool, and stores the answer in the function's frame; at the function's
  return event it puts back what it set aside. Where no event reaches the hook (the handler ran
  inside a tracer or profiler already, where nothing is reported), the function puts things
  back and does the work itself.

`keep(K, value)` (a retried `return EXPR`, after a model chose to retry) is a plain method: its
value is computed between the lookup and the call, by program code that must stay traced.
"""

import sys
from _functools import partial  # C modules only: what they bring is out of sys.modules at the start (modules.py)
from _operator import and_, call, getitem, is_, itemgetter, methodcaller, not_
from _thread import get_ident
from itertools import repeat

__all__ = ["CALLS", "QUIETLY", "direct", "handler_call", "prepare"]

CALLS = ("retry", "raising", "binding", "value", "returned", "forget", "settle")

_STOP = object()  # no step returns it: the iterators below never end
_monitoring = getattr(sys, "monitoring", None)  # 3.12+
_TOOLS = range(6)  # the tool ids a program may use (6 and 7 are sys.setprofile's and sys.settrace's)
_SET_ASIDE = []  # (thread, trace function, profile function, tools' events) per call in progress


def _each(function, *args):
    """An endless iterator whose every step is `function(*args)`, called from C."""
    return iter(partial(function, *args), _STOP)


def _nobody_watching():
    """At each step: True when this thread has no trace or profile function and no tool is registered."""
    functions = zip(_each(sys.gettrace), _each(sys.getprofile))
    quiet = map(all, map(map, repeat(is_), functions, repeat((None, None))))  # `is`: no code of the program runs
    if _monitoring is None:
        return quiet
    no_tool = map(not_, map(any, map(map, repeat(_monitoring.get_tool), repeat(_TOOLS))))
    return map(and_, quiet, no_tool)


def _setting_aside():
    """At each step: record and set aside what watches, put the hook in; gives False."""
    if _monitoring is not None:
        events = map(tuple, map(map, repeat(_monitoring.get_events), repeat(_TOOLS)))
        in_use = map(filter, repeat(_monitoring.get_tool), repeat(_TOOLS))
        pause = [map(any, map(map, repeat(_monitoring.set_events), in_use, repeat(repeat(0))))]  # any: all of them, each None
    else:
        events, pause = repeat(()), []
    record = map(_SET_ASIDE.append, zip(_each(get_ident), _each(sys.gettrace), _each(sys.getprofile), events))
    steps = zip(record, _each(sys.settrace, None), _each(sys.setprofile, _hook), *pause)
    return map(bool, map(itemgetter(1), steps))


def _put_back() -> None:
    """Restore what the latest call in progress on this thread set aside."""
    thread = get_ident()
    for position in range(len(_SET_ASIDE) - 1, -1, -1):
        if _SET_ASIDE[position][0] == thread:
            _, tracer, profiler, events = _SET_ASIDE.pop(position)
            break
    else:
        return
    sys.settrace(tracer)
    if profiler is None or callable(profiler):
        sys.setprofile(profiler)
    else:  # a profiler in C (3.11's cProfile): enable() puts it back with its settings and its stack
        profiler.enable()
    for tool, mask in enumerate(events):
        if mask and _monitoring.get_tool(tool) is not None:
            _monitoring.set_events(tool, mask)


def _hook(frame, event, arg):
    """The profile function while a handler call runs: the work at the nudge's call, the put-back at its return."""
    if frame.f_code is not _NUDGE:
        return
    if event == "call":
        slots = frame.f_locals  # once: on 3.11 and 3.12 each read refreshes it from the frame
        slots["done"] = True
        try:
            slots["result"] = getattr(slots["handlers"], "_" + slots["name"])(slots["index"], frame.f_back)
        except BaseException as error:  # noqa: BLE001 - raised again by the nudge, in the handler
            slots["error"] = error
    elif event == "return":
        _put_back()


def _nudge(index, handlers, name, done=False, result=None, error=None):
    # Its call is the hook's first event (the work); its return the last (the put-back).
    if not done:  # no event reached the hook: already inside a tracer or profiler
        _put_back()
        return getattr(handlers, "_" + name)(index, sys._getframe(1))
    if error is not None:
        raise error
    return result


_NUDGE = _nudge.__code__

# At each step: False after setting aside what watches, True when nothing does.
_CHOICES = map(call, map(getitem, repeat((_setting_aside().__next__, repeat(True).__next__)), _nobody_watching()))


def handler_call(name: str) -> property:
    """The class attribute for one handler call: looked up from C (see the module docstring)."""
    return property(methodcaller("_next_" + name))


def direct(name: str):
    """The method a lookup gives when nothing watches: the work with the handler's frame."""
    work = "_" + name

    def call_directly(self, index):
        return getattr(self, work)(index, sys._getframe(1))

    call_directly.__name__ = call_directly.__qualname__ = name
    return call_directly


def prepare(handlers, names=CALLS) -> None:
    """Give `handlers` (an object whose class has handler_call and direct for `names`) its lookups."""
    for name in names:
        nudge = type(_nudge)(_NUDGE, _nudge.__globals__, name, (handlers, name, False, None, None))
        choices = map(getitem, repeat((nudge, getattr(handlers, "_direct_" + name))), _CHOICES)
        setattr(handlers, "_next_" + name, choices.__next__)


class _Quietly:
    """`QUIETLY.run((function, *args))` is `function(*args)`, out of sight of the program's
    tracers as a handler's work is: for the bridge's work behind a call CPython makes into it
    (the project modules' path hook and loader, preparation/import_hook.py)."""

    run = handler_call("run")
    _direct_run = direct("run")

    def _run(self, call, frame):
        return call[0](*call[1:])


QUIETLY = _Quietly()
prepare(QUIETLY, ("run",))
