"""Checks values against an expected type (SPEC §6): JSON values with exact conversion, objects by identity.

`convert_value` takes a JSON value from the model (a `literal` outcome) and returns the Python value
the program sees: strictly typed (no str->int, bool is not int, int is not float, floats finite)
and converted only where that is exact (object -> dataclass or TypedDict, list -> tuple or set,
value -> Enum member, `[key, value]` pairs -> dict with non-string keys).

`check_existing` takes an object that already lives in the program and only checks it; the caller
keeps the object itself. It reads containers through the builtin types' own methods
(`list.__iter__(obj)`, `dict.items(obj)`), so subclass overrides and other program code never run,
and it looks at no more than MAX_ITEMS_CHECKED elements of a container and MAX_NODES_CHECKED values
in all. A container met again inside itself for the same type is accepted (a cycle adds nothing).

Both raise Mismatch(path, message); a union reports the one member whose shape matched, when there
is exactly one, otherwise the union itself.
"""

import enum
import itertools

from .forms import Form, Unsupported, classify
from .repr import (
    class_name, describe_value, is_finite_float, key_repr, literal_repr, short_str, type_repr,
)
from .schema import is_string_keyed

MAX_ITEMS_CHECKED = 1000
MAX_NODES_CHECKED = 100_000

_EXACT = {"int": int, "str": str, "bool": bool}


class Mismatch(Exception):
    """Internal: the value does not fit; `message` is the final TypeContractError text."""

    def __init__(self, path: str, message: str, deep: bool):
        super().__init__(message)
        self.path = path
        self.message = message
        self.deep = deep  # the value's outer shape fitted; the fault is inside it


def _mismatch(path: str, tp, value, detail: str = "", deep: bool = False) -> Mismatch:
    suffix = f" {detail}" if detail else ""
    return Mismatch(path, f"{path}: expected {type_repr(tp)}, got {describe_value(value)}{suffix}", deep)


class _Walk:
    """State of one check: classified forms by annotation identity, node budget, containers on the path."""

    def __init__(self):
        self._forms = {}
        self.nodes = 0
        self.open = set()

    def form(self, tp) -> Form:
        hit = self._forms.get(id(tp))
        if hit is not None and hit[0] is tp:
            return hit[1]
        form = classify(tp)
        self._forms[id(tp)] = (tp, form)  # keeping tp alive keeps its id unique
        return form


# ---- JSON values from the model ------------------------------------------------------------


def convert_value(value, tp, path: str):
    return _convert(value, tp, path, _Walk())


def _convert(value, tp, path, walk):
    form = walk.form(tp)
    kind = form.kind
    vtype = type(value)
    if kind == "any":
        return value
    if kind == "none":
        if value is None:
            return None
    elif kind in _EXACT:
        if vtype is _EXACT[kind]:
            return value
    elif kind == "float":
        if is_finite_float(value):
            return value
        if vtype is float:
            raise _mismatch(path, tp, value, "(not finite)")
    elif kind in ("list", "tuple_of", "set", "frozenset"):
        if vtype is list or (vtype is tuple and kind == "tuple_of"):
            items = [_convert(item, form.args[0], f"{path}[{index}]", walk) for index, item in enumerate(value)]
            return _collect(items, kind, tp, value, path)
    elif kind == "tuple":
        if vtype in (list, tuple):
            if len(value) != len(form.args):
                raise _mismatch(path, tp, value, deep=True)
            return tuple(_convert(item, arg, f"{path}[{index}]", walk)
                         for index, (item, arg) in enumerate(zip(value, form.args)))
    elif kind == "dict":
        return _convert_dict(value, tp, form, path, walk)
    elif kind == "union":
        return _first_member(value, tp, form, path, walk, _convert)
    elif kind == "literal":
        for literal in form.values:
            expected = literal.value if issubclass(type(literal), enum.Enum) else literal
            if type(expected) is vtype and expected == value:
                return literal
    elif kind == "typeddict":
        if vtype is dict:
            return _convert_fields(value, tp, form, path, walk, "key")
    elif kind == "dataclass":
        if vtype is dict:
            return _build_dataclass(value, tp, form, path, walk)
    elif kind == "enum":
        for member in form.values:
            if type(member.value) is vtype and member.value == value:
                return member
    elif kind in ("annotated", "newtype"):
        return _convert(value, form.args[0], path, walk)
    elif kind == "class":
        if isinstance(value, form.cls):
            return value
    else:
        raise AssertionError(f"unhandled form kind {kind}")
    raise _mismatch(path, tp, value)


def _collect(items, kind, tp, value, path):
    if kind == "list":
        return items
    if kind == "tuple_of":
        return tuple(items)
    try:
        return set(items) if kind == "set" else frozenset(items)
    except TypeError:
        raise _mismatch(path, tp, value, "(its items are not hashable)", deep=True) from None


def _convert_dict(value, tp, form, path, walk):
    key_tp, value_tp = form.args
    if is_string_keyed(key_tp):
        if type(value) is not dict:
            raise _mismatch(path, tp, value)
        result = {}
        for key, item in value.items():
            sub = f"{path}{key_repr(key)}"
            result[_convert(key, key_tp, f"{sub} (key)", walk)] = _convert(item, value_tp, sub, walk)
        return result
    # Non-string keys travel as [key, value] pairs (see schema.py).
    if type(value) is not list:
        raise _mismatch(path, tp, value, "(a dict with non-string keys is written as [key, value] pairs)")
    result = {}
    for index, pair in enumerate(value):
        sub = f"{path}[{index}]"
        if type(pair) is not list or len(pair) != 2:
            raise Mismatch(sub, f"{sub}: expected a [key, value] pair, got {describe_value(pair)}", True)
        key = _convert(pair[0], key_tp, f"{sub}[0]", walk)
        try:
            if key in result:
                raise Mismatch(sub, f"{sub}: duplicate key {describe_value(pair[0])}", True)
            result[key] = _convert(pair[1], value_tp, f"{sub}[1]", walk)
        except TypeError:
            raise Mismatch(sub, f"{sub}[0]: expected a hashable key, got {describe_value(key)}", True) from None
    return result


def _convert_fields(value, tp, form, path, walk, word):
    """The JSON object `value` checked field by field against a TypedDict or dataclass; a new dict."""
    fields = {field.name: field for field in form.fields}
    for field in form.fields:
        if field.required and field.name not in value:
            raise _mismatch(path, tp, value, f"missing required {word} {short_str(field.name)}", deep=True)
    for key in value:
        if key not in fields:
            raise _mismatch(path, tp, value, f"with unexpected {word} {short_str(key)}", deep=True)
    result = {}
    for key, item in value.items():
        sub = f"{path}.{key}" if word == "field" else f"{path}{key_repr(key)}"
        result[key] = _convert(item, fields[key].tp, sub, walk)
    return result


def _build_dataclass(value, tp, form, path, walk):
    name = class_name(form.cls)
    if form.text:
        raise _mismatch(path, tp, value, f"({name} cannot be built from JSON: {form.text}; return it by handle)")
    try:
        arguments = _convert_fields(value, tp, form, path, walk, "field")
    except Unsupported as error:
        reason = f"{type_repr(error.tp)}: {error.reason}"
        raise _mismatch(path, tp, value, f"({name} cannot be built from JSON: {reason}; return it by handle)") from None
    try:
        return form.cls(**arguments)
    except Exception as error:  # the program's own __init__ / __post_init__ refused the values
        detail = error.args[0] if error.args and type(error.args[0]) is str else ""
        because = f"{type(error).__name__}: {short_str(detail)}" if detail else type(error).__name__
        raise _mismatch(path, tp, value, f"that {name}() rejected ({because})", deep=True) from None


def _first_member(value, tp, form, path, walk, check):
    """The first union member that accepts `value` (members are tried in written order)."""
    inner = []
    for member in form.args:
        try:
            return check(value, member, path, walk)
        except Mismatch as error:
            if error.deep or error.path != path:
                inner.append(error)
    if len(inner) == 1:
        raise inner[0]
    raise _mismatch(path, tp, value)


# ---- existing objects ----------------------------------------------------------------------


def check_existing(obj, tp, path: str) -> None:
    _check(obj, tp, path, _Walk())


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
        ok = issubclass(otype, {"float": float, **_EXACT}[kind])
    elif kind in ("list", "tuple_of", "set", "frozenset", "tuple", "dict", "typeddict"):
        base = {"list": list, "tuple_of": tuple, "set": set, "frozenset": frozenset,
                "tuple": tuple, "dict": dict, "typeddict": dict}[kind]
        if not issubclass(otype, base):
            raise _mismatch(path, tp, obj)
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
        return _first_member(obj, tp, form, path, walk, _check)
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
        raise _mismatch(path, tp, obj)
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
            raise _mismatch(path, tp, obj, deep=True)
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
                raise _mismatch(path, tp, obj, f"missing required key {short_str(field.name)}", deep=True)
        for key in itertools.islice(dict.keys(obj), MAX_ITEMS_CHECKED):
            if type(key) is not str or key not in fields:
                raise _mismatch(path, tp, obj, f"with unexpected key {literal_repr(key)}", deep=True)
            _check(dict.__getitem__(obj, key), fields[key].tp, f"{path}{key_repr(key)}", walk)

