"""JSON Schema for an expected type (SPEC §6), sent to the model in every request.

Schemas are kept compact because they travel in every request (SPEC §5.1: a simple request stays
under 6 KB): no titles, no `items: {}` for `Any`, no empty `required`.

Values the model cannot write as JSON are returned by handle (SPEC §5.2): a plain class, a
dataclass whose fields JSON cannot express, an Enum whose values are not JSON scalars. Their schema
is `{}` with a description that says so. A dict whose keys are not strings is written as a list of
`[key, value]` pairs, which check_value turns back into a dict exactly.
"""

import enum

from .forms import Unsupported, classify, is_json_scalar
from .repr import class_name, type_repr

__all__ = ["build_schema", "is_string_keyed"]

_PRIMITIVE_TYPES = {"int": "integer", "float": "number", "str": "string", "bool": "boolean", "none": "null"}


def build_schema(tp, active: frozenset = frozenset()) -> dict:
    """`active` holds the record classes being expanded, so a recursive type stops at itself."""
    form = classify(tp)
    kind = form.kind
    if kind == "any":
        return {}
    if kind in _PRIMITIVE_TYPES:
        return {"type": _PRIMITIVE_TYPES[kind]}
    if kind in ("list", "tuple_of"):
        return _array(form.args[0], active)
    if kind in ("set", "frozenset"):
        return {**_array(form.args[0], active), "uniqueItems": True}
    if kind == "tuple":
        count = len(form.args)
        return {
            "type": "array",
            "prefixItems": [build_schema(arg, active) for arg in form.args],
            "minItems": count,
            "maxItems": count,
            "items": False,
        }
    if kind == "dict":
        return _dict(form.args[0], form.args[1], active)
    if kind == "union":
        return {"anyOf": [build_schema(arg, active) for arg in form.args]}
    if kind == "literal":
        return {"enum": [_json_value(value) for value in form.values]}
    if kind == "typeddict":
        return _record(form, active)
    if kind == "dataclass":
        return _dataclass(form, active)
    if kind == "enum":
        values = [member.value for member in form.values]
        if all(is_json_scalar(value) for value in values):
            return {"enum": values}
        return _by_handle(f"a member of enum {class_name(form.cls)}", "its values are not JSON scalars")
    if kind == "annotated":
        schema = dict(build_schema(form.args[0], active))
        if form.text:
            earlier = schema.get("description")
            schema["description"] = f"{form.text} ({earlier})" if earlier else form.text
        return schema
    if kind == "newtype":
        return build_schema(form.args[0], active)
    if kind == "class":
        return _by_handle(f"an object of class {class_name(form.cls)}", None)
    raise AssertionError(f"unhandled form kind {kind}")


def is_string_keyed(tp) -> bool:
    """Whether dict keys of this type are JSON object keys (str, str Literal/Enum, Any)."""
    form = classify(tp)
    if form.kind in ("str", "any"):
        return True
    if form.kind == "literal":
        return all(type(_json_value(value)) is str for value in form.values)
    if form.kind == "enum":
        return all(type(member.value) is str for member in form.values)
    if form.kind in ("annotated", "newtype"):
        return is_string_keyed(form.args[0])
    if form.kind == "union":
        return all(is_string_keyed(arg) for arg in form.args)
    return False


def _json_value(value):
    """A Literal value as JSON: an Enum member stands for its value."""
    return value.value if issubclass(type(value), enum.Enum) else value


def _array(item_tp, active) -> dict:
    items = build_schema(item_tp, active)
    return {"type": "array", "items": items} if items else {"type": "array"}


def _dict(key_tp, value_tp, active) -> dict:
    value_schema = build_schema(value_tp, active)
    if is_string_keyed(key_tp):
        schema = {"type": "object"}
        if value_schema:
            schema["additionalProperties"] = value_schema
        key_schema = build_schema(key_tp, active)
        if key_schema not in ({}, {"type": "string"}):
            schema["propertyNames"] = key_schema
        return schema
    pair = {
        "type": "array",
        "prefixItems": [build_schema(key_tp, active), value_schema],
        "minItems": 2,
        "maxItems": 2,
        "items": False,
    }
    return {"type": "array", "items": pair, "description": "dict as a list of [key, value] pairs"}


def _record(form, active) -> dict:
    name = class_name(form.cls)
    if form.cls in active:
        return {"type": "object", "description": f"a nested {name}, same fields as the enclosing {name}"}
    inner = active | {form.cls}
    schema = {
        "type": "object",
        "properties": {field.name: build_schema(field.tp, inner) for field in form.fields},
        "additionalProperties": False,
    }
    required = [field.name for field in form.fields if field.required]
    if required:
        schema["required"] = required
    return schema


def _dataclass(form, active) -> dict:
    what = f"an object of class {class_name(form.cls)}"
    if form.text:
        return _by_handle(what, form.text)
    try:
        return _record(form, active)
    except Unsupported as error:
        return _by_handle(what, f"{type_repr(error.tp)}: {error.reason}")


def _by_handle(what: str, why: str | None) -> dict:
    text = f"{what}; return it by handle or expression, not as JSON"
    if why:
        text += f" ({why})"
    return {"description": text}
