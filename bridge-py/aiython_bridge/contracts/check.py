"""`check_existing` (SPEC §6): an object that already lives in the program is only checked against
an expected type; the caller keeps the object itself. It reads containers through the builtin
types' own methods (`list.__iter__(obj)`, `dict.items(obj)`), so subclass overrides and other
program code never run, and it looks at no more than MAX_ITEMS_CHECKED elements of a container and
MAX_NODES_CHECKED values in all. A container met again inside itself for the same type is
accepted (a cycle adds nothing). Raises Mismatch(path, message); a union reports the one member
whose shape matched, when there is exactly one, otherwise the union itself (`walk.first_member`).
"""

import enum
import itertools

from .repr import key_repr, literal_repr, short_str
from .walk import EXACT, MAX_ITEMS_CHECKED, MAX_NODES_CHECKED, Walk, first_member, mismatch

__all__ = ["check_existing"]


def check_existing(obj, tp, path: str, forms=None) -> None:
    """`forms`: Walk's shared classifications, for a caller that checks the same annotation often."""
    _check(obj, tp, path, Walk(forms))


def _check(obj, tp, path, walk):
    walk.nodes += 1
    if walk.nodes > MAX_NODES_CHECKED:
        return obj
    form = walk.form(tp)
    kind = form.kind
    otype = type(obj)
    if kind == "any":
        return obj
    if kind == "none":
        ok = obj is None
    elif kind == "int":
        ok = issubclass(otype, int) and not issubclass(otype, bool)
    elif kind in ("float", "str", "bool"):
        ok = issubclass(otype, {"float": float, **EXACT}[kind])
    elif kind in ("list", "tuple_of", "set", "frozenset", "tuple", "dict", "typeddict"):
        base = {"list": list, "tuple_of": tuple, "set": set, "frozenset": frozenset,
                "tuple": tuple, "dict": dict, "typeddict": dict}[kind]
        if not issubclass(otype, base):
            raise mismatch(path, tp, obj)
        key = (id(obj), id(tp))
        if key in walk.open:
            return obj
        walk.open.add(key)
        try:
            _check_container(obj, tp, form, path, walk)
        finally:
            walk.open.discard(key)
        return obj
    elif kind == "union":
        return first_member(obj, tp, form, path, walk, _check)
    elif kind == "literal":
        ok = any(obj is literal if issubclass(type(literal), enum.Enum)
                 else type(literal) is otype and literal == obj for literal in form.values)
    elif kind == "enum":
        ok = issubclass(otype, form.cls)
    elif kind in ("annotated", "newtype"):
        return _check(obj, form.args[0], path, walk)
    elif kind in ("dataclass", "class"):
        ok = isinstance(obj, form.cls)
    else:
        raise AssertionError(f"unhandled form kind {kind}")
    if not ok:
        raise mismatch(path, tp, obj)
    return obj


def _check_container(obj, tp, form, path, walk):
    kind = form.kind
    if kind in ("list", "tuple_of", "set", "frozenset"):
        if walk.form(form.args[0]).kind == "any":
            return
        base = {"list": list, "tuple_of": tuple, "set": set, "frozenset": frozenset}[kind]
        ordered = kind in ("list", "tuple_of")
        for index, item in enumerate(itertools.islice(base.__iter__(obj), MAX_ITEMS_CHECKED)):
            _check(item, form.args[0], f"{path}[{index}]" if ordered else f"{path} element", walk)
    elif kind == "tuple":
        if tuple.__len__(obj) != len(form.args):
            raise mismatch(path, tp, obj, deep=True)
        for index, arg in enumerate(form.args):
            _check(tuple.__getitem__(obj, index), arg, f"{path}[{index}]", walk)
    elif kind == "dict":
        key_tp, value_tp = form.args
        for key, item in itertools.islice(dict.items(obj), MAX_ITEMS_CHECKED):
            sub = f"{path}{key_repr(key)}"
            _check(key, key_tp, f"{sub} (key)", walk)
            _check(item, value_tp, sub, walk)
    else:  # typeddict: exactly its keys, each value of its type
        fields = {field.name: field for field in form.fields}
        for field in form.fields:
            if field.required and not dict.__contains__(obj, field.name):
                raise mismatch(path, tp, obj, f"missing required key {short_str(field.name)}", deep=True)
        for key in itertools.islice(dict.keys(obj), MAX_ITEMS_CHECKED):
            if type(key) is not str or key not in fields:
                raise mismatch(path, tp, obj, f"with unexpected key {literal_repr(key)}", deep=True)
            _check(dict.__getitem__(obj, key), fields[key].tp, f"{path}{key_repr(key)}", walk)
