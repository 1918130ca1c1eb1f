"""The handlers' calls, out of sight of the program's tracers, profilers and monitoring tools (SPEC §2).

A checkpoint's handler asks `K in retry`, `K in raising`, … and reads `value[K]`, `returned[K]`
(instrument.py; K stands for K + KEY_OFFSET): each a HandlerCall, one per call for the whole
process (calls.py). A Python function called there would be seen by the program's
`sys.settrace` and `sys.setprofile` functions (pdb, bdb, `-m trace`, `-m profile`, 3.11's
cProfile) and, on 3.12+, by `sys.monitoring` tools (3.12's cProfile, coverage): a call python3
never makes. So a HandlerCall's `__contains__` and `__getitem__` are a property whose getter is
built of C callables only — endless iterators over the `sys` functions, composed with map and
zip — and the test or subscript runs no Python frame and reports nothing until it has chosen:

- with no trace or profile function set and no monitoring tool registered, the lookup gives the
  call's work itself, which takes the handler's frame as its caller's: nothing watches;
- otherwise it sets the trace and profile functions aside (kept in `_SET_ASIDE` with the
  thread), pauses the tools' events, puts a hook of its own in (`_PUT_IN`: `_hook` as the
  profile function, or on 3.12+ `_trace_hook` as the trace function where only that was set)
  and gives a small function of its own (`_NUDGE`). Calling that function is the hook's first
  event: the hook does the handler's work there, inside its callback, where CPython reports
  nothing to any tracer, profiler or tool, and stores the answer in the function's frame; at the
  function's return event it puts back what it set aside. Where no event reaches the hook (the
  handler ran inside a tracer or profiler already, where nothing is reported), the function
  puts things back and does the work itself.

`handler_call` gives the same choice as a property looked up by attribute (QUIETLY's `run`).
"""

import sys
from _functools import partial  # C modules only: what they bring is out of sys.modules at the start (modules.py)
from _operator import add, and_, call, getitem, is_, is_not, itemgetter, methodcaller, mul, not_
from _thread import get_ident
from itertools import repeat

from .shipped import answer_of

__all__ = ["QUIETLY", "HandlerCall", "handler_calls"]

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
    # The choice is read again for the profile function: putting in a trace function where one was
    # set, or none where none was, leaves it the same.
    set_trace = map(sys.settrace, map(itemgetter(0), _put_in()))
    set_profile = map(sys.setprofile, map(itemgetter(1), _put_in()))
    steps = zip(record, set_trace, set_profile, *pause)
    return map(bool, map(itemgetter(1), steps))


def _put_in():
    """At each step: what goes in, from _PUT_IN by what this thread has set now."""
    watching = map(add, map(mul, map(is_not, _each(sys.getprofile), repeat(None)), repeat(2)),
                   map(is_not, _each(sys.gettrace), repeat(None)))
    return map(getitem, repeat(_PUT_IN), watching)


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
            slots["result"] = slots["work"](slots["key"], frame.f_back)
        except BaseException as error:  # noqa: BLE001 - raised again by the nudge, in the handler
            slots["error"] = error
    elif event == "return":
        _put_back()


def _trace_hook(frame, event, arg):
    """The trace function while a handler call runs where no profile function was set: as _hook,
    the work at the nudge's call, and the put-back at its return (the nudge's own trace function)."""
    if frame.f_code is not _NUDGE:
        return None
    _hook(frame, event, arg)
    return _trace_hook


def _quiet(frame, event, arg):
    """The trace function while a handler call runs under a profile function (_hook does the work)."""
    return None


# What is put in while a handler call runs, (trace, profile), by 2 × (a profile function was set)
# + (a trace function was set). On 3.12+ each one that was set is replaced, never cleared, and
# none is added where there was none but for the hook itself: there a change between none and
# some makes CPython instrument every code object again (sys.monitoring), a few hundred µs each
# time. On 3.11 the profile hook alone is cheapest (the trace hook would also hear the nudge's
# lines). With only sys.monitoring tools watching, the profile hook goes in and the tools' events pause.
_PUT_IN = ((None, _hook), (_trace_hook if _monitoring else None, None if _monitoring else _hook), (None, _hook),
           (_quiet if _monitoring else None, _hook))


def _nudge(key, work, done=False, result=None, error=None):
    # Its call is the hook's first event (the work); its return the last (the put-back).
    if not done:  # no event reached the hook: already inside a tracer or profiler
        _put_back()
        return work(key, sys._getframe(1))
    if error is not None:
        raise error
    return result


_NUDGE = _nudge.__code__

# At each step: False after setting aside what watches, True when nothing does.
_CHOICES = map(call, map(getitem, repeat((_setting_aside().__next__, repeat(True).__next__)), _nobody_watching()))


def _choices(work, name: str, direct=None):
    """The next step of the endless choice between the nudge and the direct call of `work(key,
    frame)` (`direct(key)`, if given, finds the frame itself: one Python frame fewer)."""
    nudge = type(_nudge)(_NUDGE, _nudge.__globals__, name, (work, False, None, None))
    return map(getitem, repeat((nudge, direct or partial(_direct_call, work))), _CHOICES).__next__


def _direct_call(work, key):
    """The call when nothing watches: the work with the handler's frame (C frames in between)."""
    return work(key, sys._getframe(1))


class HandlerCall:
    """One call of the checkpoint handlers: `call[key]` (and `key in call`, its truth) is
    `work(key, handler's frame)`, chosen from C (see the module docstring); `work(key)` alone
    must find the frame as `sys._getframe(1)`. `name` says which call it is (shipped.py pickles
    by it)."""

    __slots__ = ("name", "work", "_next")
    __getitem__ = __contains__ = property(methodcaller("_next"))  # NAME[K], K in NAME

    def __init__(self, name: str, work):
        self.name, self.work, self._next = name, work, _choices(work, name, work)

    def __reduce__(self):
        return answer_of(self.name)


def handler_calls(works: dict) -> dict:
    """{name: HandlerCall} for {name: work}."""
    return {name: HandlerCall(name, work) for name, work in works.items()}


def handler_call(name: str) -> property:
    """A class attribute looked up from C, as a HandlerCall's subscript is: the instance's
    `_next_NAME` gives the nudge or the direct call (`_choices`)."""
    return property(methodcaller("_next_" + name))


class _Quietly:
    """`QUIETLY.run((function, *args))` is `function(*args)`, out of sight of the program's
    tracers as a handler's work is: for the bridge's work behind a call CPython makes into it
    (the project modules' path hook and loader, preparation/import_hook.py)."""

    run = handler_call("run")

    def __init__(self):
        self._next_run = _choices(self._run, "run")

    def _run(self, call, frame):
        return call[0](*call[1:])


QUIETLY = _Quietly()
