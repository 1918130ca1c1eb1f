"""Which failures may be put to the model at all (SPEC §4.2 "eligible exceptions").

Not eligible: not an `Exception`; aiython's own (`AIError` and subclasses, including
`TypeContractError`, and the source guard's `GuardError`); `concurrent.futures.CancelledError`;
an `ExceptionGroup` with an ineligible member; an exception that already carries a decision
(decision.py). Deliberate additions: `StopIteration` / `StopAsyncIteration` (the iteration protocol's end signal, not a failure),
protocol signals leaving the method that gives them (`AttributeError` from `__getattr__`,
`__getattribute__` or a property getter: how `hasattr`/`getattr(..., default)` learn that an
attribute is absent; `IndexError` from `__getitem__`: the end of old-style iteration) — the
accessing statement may still recover —, anything raised in `__del__` (finalizers run at
arbitrary points, even inside the bridge), and an exception thrown into a suspended generator or
coroutine by one of its callers (the failure is the caller's, e.g. a `with` body under
`contextlib.contextmanager`, not the `yield`'s), and a debugger's control flow (`bdb.BdbQuit`,
raised where the program stands when the user quits pdb, and `pdb.Restart`: the user's own
decision, which ends the program as under python3). Also never: a `RecursionError` (there is no
stack left to run a consultation on; the handler re-raises it before any call), and a
`BrokenPipeError` while the program's own stdout or stderr is a pipe whose reader has gone (as
in `| head -1`: nothing a model decides can help, and CPython's behaviour is kept).

Whether a calling frame would see the failure first is callers.py's question.
"""

from __future__ import annotations

import sys

from .. import pycompat
from ..errors import AIError, GuardError
from .decision import decided

__all__ = ["eligible", "is_property_getter", "recoverable", "thrown_in"]

# An exception of this class leaving a method of this name is how the caller (often C code such
# as hasattr, getattr with a default, or old-style iteration over __getitem__) learns "absent" or
# "exhausted": a protocol signal, recovered (if at all) at the statement that made the access.
_PROTOCOL_SIGNALS = {"__getattr__": AttributeError, "__getattribute__": AttributeError, "__getitem__": IndexError}
_SUSPENDABLE = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR


def eligible(exc) -> bool:
    """SPEC §4.2's eligible exceptions, plus the iteration protocol's signals left out."""
    if not isinstance(exc, Exception) or isinstance(exc, (AIError, GuardError, StopIteration, StopAsyncIteration)):
        return False
    futures = sys.modules.get("concurrent.futures._base")  # never imported here just to ask
    if futures is not None and isinstance(exc, futures.CancelledError):
        return False
    if isinstance(exc, RecursionError) or _debugger_control(exc):
        return False
    if isinstance(exc, BrokenPipeError) and _own_output_broken():
        return False
    if isinstance(exc, BaseExceptionGroup):
        return all(eligible(member) for member in exc.exceptions)
    return True


def _debugger_control(exc) -> bool:
    """BdbQuit or pdb.Restart, from modules the program imported (never imported here to ask)."""
    for module, name in (("bdb", "BdbQuit"), ("pdb", "Restart")):
        kind = getattr(sys.modules.get(module), name, None)
        if kind is not None and isinstance(exc, kind):
            return True
    return False


def _own_output_broken() -> bool:
    """Whether fd 1 or 2 is a pipe whose reading end is closed (poll reports an error on it)."""
    import select

    try:
        poller = select.poll()
        for fd in (1, 2):
            poller.register(fd, select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def recoverable(exc, frame) -> bool:
    """Whether the failure of the statement running in `frame` is eligible, undecided and its own
    (not a protocol signal, a finalizer's, or thrown in by a caller)."""
    if not eligible(exc) or decided(exc):
        return False
    name = frame.f_code.co_name
    signal = _PROTOCOL_SIGNALS.get(name)
    if name == "__del__" or (signal is not None and isinstance(exc, signal)):
        return False
    if isinstance(exc, AttributeError) and is_property_getter(frame):
        return False
    if frame.f_code.co_flags & _SUSPENDABLE and thrown_in(frame, exc):
        return False
    return True


def is_property_getter(frame) -> bool:
    """Whether the frame runs the getter of a property (or cached_property) of its first argument's
    class: an AttributeError from it makes `hasattr` false and `__getattr__` run instead."""
    code = frame.f_code
    if not pycompat.is_optimized(frame) or code.co_argcount != 1:
        return False
    values = pycompat.read_frame_locals(frame)
    if code.co_varnames[0] not in values:
        return False
    for klass in type.__dict__["__mro__"].__get__(type(values[code.co_varnames[0]])):
        attribute = type.__dict__["__dict__"].__get__(klass).get(code.co_name)
        getter = getattr(attribute, "fget", None) if isinstance(attribute, property) else getattr(attribute, "func", None)
        if getattr(getter, "__code__", None) is code:
            return True
    return False


def thrown_in(frame, exc) -> bool:
    """Whether `exc` was thrown into a suspended generator or coroutine (`gen.throw()`, as
    `contextlib.contextmanager` does with a failing `with` body): after this frame's traceback
    entry comes a frame that is one of its callers, so the statement at the `yield` did not fail."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame is not frame:
        tb = tb.tb_next
    if tb is None or tb.tb_next is None:
        return False
    source = tb.tb_next.tb_frame
    caller = frame.f_back
    while caller is not None:
        if caller is source:
            return True
        caller = caller.f_back
    return False
