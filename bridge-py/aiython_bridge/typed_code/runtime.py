"""The checks of `type_contracts = "all"` at run time: the object the placeholder
code_constants.CONTRACTS becomes in code that sites.py rewrote.

`TypeContracts.value(v, SITE)` checks a program value against the annotation SITE names with
SPEC §6's checker for objects that already live in the program (`contracts.check_object`'s: the
same contracts as a value a model's `set_binding` leaves; strict primitives — no str→int, `bool`
is not an `int`, `int` is not a `float` — and nothing converted, the object itself kept). It
returns a C callable that the program's frame calls: one that gives `v`, or one that raises the
TypeContractError from C (pauses/block_call.py), so the traceback ends on the program's line
with no frame of aiython's.

An annotation's text is resolved as an AI block's is (contracts/resolve.py: only the syntax of
annotations, typing's names as a fallback, strings inside it forward references) against the
module's globals the first time its site runs, and kept for that site (a constant tuple of the
code, held with its resolution). Text that names something the globals lack (a class defined
in the function, a forward reference not defined yet) is resolved against the frame's locals
too, each time, and a site that resolves to nothing is not checked that time. An annotation
outside §6's set (a TypeVar, a Callable, a Protocol, a subscripted user generic) is never
checked at that site.
"""

from __future__ import annotations

import sys

from ..contracts.check import check_existing
from ..contracts.forms import Unsupported
from ..contracts.resolve import ResolveError, evaluate_annotation
from ..contracts.walk import Mismatch
from ..errors import TypeContractError
from ..pauses.block_call import settled_raise, settled_value

__all__ = ["TypeContracts", "runtime"]

_SKIP = object()
_runtime = []


def runtime() -> TypeContracts:
    """The process's one TypeContracts."""
    if not _runtime:
        _runtime.append(TypeContracts())
    return _runtime[0]


class TypeContracts:
    def __init__(self):
        self._types = {}  # id(site) -> (site, its type or _SKIP); the site kept alive keeps its id

    def value(self, value, site):
        """The call that gives `value`, or raises a TypeContractError naming site[1]."""
        hit = self._types.get(id(site))
        if hit is not None and hit[0] is site:
            tp = hit[1]
        else:
            tp = self._resolve(site, sys._getframe(1))
        if tp is _SKIP or type(value) is tp:  # an exact class satisfies itself
            return settled_value(value)
        try:
            check_existing(value, tp, site[1])
        except Mismatch as error:
            return settled_raise(TypeContractError(error.message))
        except Unsupported:
            self._types[id(site)] = (site, _SKIP)
        except RecursionError:
            pass  # no stack left to check on: the program's own next call meets the limit
        return settled_value(value)

    def _resolve(self, site, frame):
        text = site[0]
        try:
            tp = evaluate_annotation(text, frame.f_globals)
        except ResolveError:
            try:
                return evaluate_annotation(text, frame.f_globals, frame.f_locals)
            except ResolveError:
                return _SKIP
        self._types[id(site)] = (site, tp)
        return tp
