"""`convert_value` (SPEC §6): a JSON value from the model (a `literal` outcome) → the Python value the
program sees, strictly typed (no str->int, bool is not int, int is not float, floats finite) and
converted only where that is exact (object -> dataclass or TypedDict, list -> tuple or set, value ->
Enum member, `[key, value]` pairs -> dict with non-string keys). Raises Mismatch(path, message).
"""

import enum

from .forms import Unsupported
from .repr import class_name, describe_value, is_finite_float, key_repr, short_str, type_repr
from .schema import is_string_keyed
from .walk import EXACT, Mismatch, Walk, first_member, mismatch

__all__ = ["convert_value"]


def convert_value(value, tp, path: str):
    return _convert(value, tp, path, Walk())


def _convert(value, tp, path, walk):
    form = walk.form(tp)
    kind = form.kind
    vtype = type(value)
    if kind == "any":
        return value
    if kind == "none":
        if value is None:
            return None
    elif kind in EXACT:
        if vtype is EXACT[kind]:
            return value
    elif kind == "float":
        if is_finite_float(value):
            return value
        if vtype is float:
            raise mismatch(path, tp, value, "(not finite)")
    elif kind in ("list", "tuple_of", "set", "frozenset"):
        if vtype is list or (vtype is tuple and kind == "tuple_of"):
            items = [_convert(item, form.args[0], f"{path}[{index}]", walk) for index, item in enumerate(value)]
            return _collect(items, kind, tp, value, path)
    elif kind == "tuple":
        if vtype in (list, tuple):
            if len(value) != len(form.args):
                raise mismatch(path, tp, value, deep=True)
            return tuple(_convert(item, arg, f"{path}[{index}]", walk)
                         for index, (item, arg) in enumerate(zip(value, form.args)))
    elif kind == "dict":
        return _convert_dict(value, tp, form, path, walk)
    elif kind == "union":
        return first_member(value, tp, form, path, walk, _convert)
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
    raise mismatch(path, tp, value)


def _collect(items, kind, tp, value, path):
    if kind == "list":
        return items
    if kind == "tuple_of":
        return tuple(items)
    try:
        return set(items) if kind == "set" else frozenset(items)
    except TypeError:
        raise mismatch(path, tp, value, "(its items are not hashable)", deep=True) from None


def _convert_dict(value, tp, form, path, walk):
    key_tp, value_tp = form.args
    if is_string_keyed(key_tp):
        if type(value) is not dict:
            raise mismatch(path, tp, value)
        result = {}
        for key, item in value.items():
            sub = f"{path}{key_repr(key)}"
            result[_convert(key, key_tp, f"{sub} (key)", walk)] = _convert(item, value_tp, sub, walk)
        return result
    # Non-string keys travel as [key, value] pairs (see schema.py).
    if type(value) is not list:
        raise mismatch(path, tp, value, "(a dict with non-string keys is written as [key, value] pairs)")
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
            raise mismatch(path, tp, value, f"missing required {word} {short_str(field.name)}", deep=True)
    for key in value:
        if key not in fields:
            raise mismatch(path, tp, value, f"with unexpected {word} {short_str(key)}", deep=True)
    result = {}
    for key, item in value.items():
        sub = f"{path}.{key}" if word == "field" else f"{path}{key_repr(key)}"
        result[key] = _convert(item, fields[key].tp, sub, walk)
    return result


def _build_dataclass(value, tp, form, path, walk):
    name = class_name(form.cls)
    if form.text:
        raise mismatch(path, tp, value, f"({name} cannot be built from JSON: {form.text}; return it by handle)")
    try:
        arguments = _convert_fields(value, tp, form, path, walk, "field")
    except Unsupported as error:
        reason = f"{type_repr(error.tp)}: {error.reason}"
        raise mismatch(path, tp, value, f"({name} cannot be built from JSON: {reason}; return it by handle)") from None
    try:
        return form.cls(**arguments)
    except Exception as error:  # the program's own __init__ / __post_init__ refused the values
        detail = error.args[0] if error.args and type(error.args[0]) is str else ""
        because = f"{type(error).__name__}: {short_str(detail)}" if detail else type(error).__name__
        raise mismatch(path, tp, value, f"that {name}() rejected ({because})", deep=True) from None
