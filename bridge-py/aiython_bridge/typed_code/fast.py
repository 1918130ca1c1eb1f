"""What lets a value through without the full check (runtime.py): a sufficient condition only.

A value that passes here satisfies the annotation under SPEC §6's checker (contracts/check.py);
one that does not is checked in full, which accepts it or names what is wrong. So the rules here
may only be stricter than the checker's: exact classes (`type(v) is C`, never a subclass), the
builtin containers themselves (not subclasses, whose methods are the program's), and their first
MAX_ITEMS_CHECKED items, as the checker reads them, compared in C (`frozenset.issuperset` over
`map(type, …)`).
"""

from __future__ import annotations

import types
import typing
from itertools import islice

from ..contracts.walk import MAX_ITEMS_CHECKED

__all__ = ["exact_classes", "fast_check"]

_SEQUENCES = (list, set, frozenset)


def exact_classes(tp) -> tuple:
    """Classes whose instances (of exactly that class) satisfy `tp` without looking inside."""
    if tp is None or tp is type(None):
        return (type(None),)
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        return tuple(cls for member in typing.get_args(tp) for cls in exact_classes(member))
    if type(tp) is type:  # a plain class (bare list is list[Any]); not TypedDict, Enum or Protocol
        return (tp,)
    return ()


def fast_check(tp):
    """A function value -> True when `value` surely satisfies `tp`, or None when there is none."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in _SEQUENCES and len(args) == 1:
        return _items_of(origin, frozenset(exact_classes(args[0])))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _items_of(tuple, frozenset(exact_classes(args[0])))
    if origin is tuple and args and Ellipsis not in args:
        return _fixed_tuple(tuple(frozenset(exact_classes(arg)) for arg in args))
    if origin is dict and len(args) == 2:
        return _dict_of(frozenset(exact_classes(args[0])), frozenset(exact_classes(args[1])))
    return None


def _items_of(container, items):
    if not items:
        return None

    def check(value):
        return type(value) is container and items.issuperset(map(type, islice(value, MAX_ITEMS_CHECKED)))

    return check


def _fixed_tuple(positions):
    if not all(positions):
        return None
    size = len(positions)

    def check(value):
        return type(value) is tuple and len(value) == size and all(type(item) in allowed for item, allowed in zip(value, positions))

    return check


def _dict_of(keys, values):
    if not keys or not values:
        return None

    def check(value):
        return (type(value) is dict and keys.issuperset(map(type, islice(value, MAX_ITEMS_CHECKED)))
                and values.issuperset(map(type, islice(value.values(), MAX_ITEMS_CHECKED))))

    return check
