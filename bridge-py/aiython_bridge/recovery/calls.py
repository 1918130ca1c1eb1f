"""A file's handler calls (instrument.py): `retry[K + KEY_OFFSET]`, `raising[…]`, … and a
retried return's `keep[K + KEY_OFFSET] = value`, each a constant of the code whose work is the
handler object's `_NAME(index, frame)` (`_keep(index, frame, value)`) with K taken back out of
the key. The subscripts are unseen.HandlerCall's, chosen from C out of sight of the program's
tracers; `keep` is a plain method (its value is computed by program code, which stays traced,
and it runs only after a model chose to retry). checkpoints.FileCheckpoints and
sources.DeferredCheckpoints make theirs here; program_code binds each to its placeholder
(code_constants.CALLS)."""

import sys
from _functools import partial

from ..preparation.code_constants import CALLS, KEY_OFFSET
from .shipped import answer_of
from .unseen import handler_calls

__all__ = ["calls_of"]


def calls_of(handlers) -> dict:
    """{placeholder: call} for `handlers`, an object with the `_NAME` works."""
    works = {name: partial(_at_index, getattr(handlers, "_" + name)) for name in CALLS if name != "keep"}
    calls = {CALLS[name]: call for name, call in handler_calls(works).items()}
    calls[CALLS["keep"]] = _Keep(handlers._keep)
    return calls


def _at_index(work, key, frame):
    return work(key - KEY_OFFSET, frame)


class _Keep:
    """`keep[K + KEY_OFFSET] = value`: a retried `return EXPR` succeeded with this value."""

    __slots__ = ("work",)

    def __init__(self, work):
        self.work = work

    def __setitem__(self, key, value):
        self.work(key - KEY_OFFSET, sys._getframe(1), value)

    def __reduce__(self):
        return answer_of("keep")
