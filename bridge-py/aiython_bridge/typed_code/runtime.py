"""The checks of `type_contracts = "all"` at run time: the object the placeholder
code_constants.CONTRACTS becomes in code that sites.py rewrote.

`TypeContracts.value(v, SITE)` checks a program value against the annotation SITE names with
SPEC §6's checker for objects that already live in the program (`contracts.check_object`'s: the
same contracts as a value a model's `set_binding` leaves; strict primitives — no str→int, `bool`
is not an `int`, `int` is not a `float` — and nothing converted, the object itself kept). It
returns what the program's frame subscripts with 0: `(v,)`, or a defaultdict whose factory
raises the TypeContractError from C (pauses/block_call.py's generator `throw`), so the traceback
ends on the program's line with no frame of aiython's.

An annotation's text is resolved as an AI block's is (contracts/resolve.py: only the syntax of
annotations, typing's names as a fallback, strings inside it forward references) against the
module's globals the first time its site runs, and kept for that site (a constant tuple of the
code, held with its resolution), with the exact classes that satisfy it at once (`int` for
`int`, `str` and NoneType for `Optional[str]`) and the classified forms of its checks. Text
that names something the globals lack (a class defined in the function, a forward reference not
defined yet) is resolved against the frame's locals too, each time, and a site that resolves to
nothing is not checked that time. An annotation outside §6's set (a TypeVar, a Callable, a
Protocol, a subscripted user generic), `Any` and `object` are never checked at that site.
"""

from __future__ import annotations

import sys
import typing
from _collections import defaultdict  # collections' own, without importing the package

from ..contracts.check import check_existing
from .fast import exact_classes, fast_check
from ..contracts.forms import Unsupported
from ..contracts.resolve import ResolveError, evaluate_annotation
from ..contracts.walk import Mismatch
from ..errors import TypeContractError
from ..pauses.block_call import settled_raise

__all__ = ["TypeContracts", "runtime"]

_SKIP = (None, None, frozenset(), None, None)  # (site, type, exact classes, fast check, shared forms): never checked
_runtime = []


def runtime() -> TypeContracts:
    """The process's one TypeContracts."""
    if not _runtime:
        _runtime.append(TypeContracts())
    return _runtime[0]


class TypeContracts:
    def __init__(self):
        self._sites = {}  # id(site) -> (site, type, exact classes, fast check, forms); the site kept alive keeps its id

    def value(self, value, site):
        """`(value,)`, or what raises a TypeContractError naming site[1] when subscripted."""
        state = self._sites.get(id(site))
        if state is None or state[0] is not site:
            state = self._resolve(site, sys._getframe(1))
        if type(value) in state[2] or state[1] is None or (state[3] is not None and state[3](value)):
            return (value,)
        try:
            check_existing(value, state[1], site[1], state[4])
        except Mismatch as error:
            return defaultdict(settled_raise(TypeContractError(error.message)))
        except Unsupported:
            self._sites[id(site)] = (site, *_SKIP[1:])
        except RecursionError:
            pass  # no stack left to check on: the program's own next call meets the limit
        return (value,)

    def _resolve(self, site, frame):
        text = site[0]
        try:
            tp = evaluate_annotation(text, frame.f_globals)
        except ResolveError:
            try:
                tp = evaluate_annotation(text, frame.f_globals, frame.f_locals)
            except ResolveError:
                return _SKIP
            return _state(site, tp, None)  # the frame's: not kept
        state = self._sites[id(site)] = _state(site, tp, {})
        return state


def _state(site, tp, forms):
    if tp is typing.Any or tp is object:
        return (site, *_SKIP[1:])
    return site, tp, frozenset(exact_classes(tp)), fast_check(tp), forms

