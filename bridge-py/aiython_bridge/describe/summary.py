"""Structural summaries of program objects for request content (SPEC §5.1; content.py's related
objects): a descriptor's fields, then either a small primitive's value, inline (when
`context_values` is on), or type, size, keys and field types, a function's signature, a class's
dataclass fields. With `context_values` off, only structure is sent (types, sizes,
identifier-like keys), never values.
"""

from __future__ import annotations

from .bounds import FIELDS_LIMIT, INLINE_ITEM_STR_LIMIT, INLINE_ITEMS, INLINE_STR_LIMIT, INLINE_TOTAL_CHARS, PREVIEW_CHARS
from .descriptors import descriptor, scalar_fields
from .reading import (FUNCTION_TYPE, MODULE_TYPE, annotation_text, builtin_base, dataclass_fields, function_signature,
                      instance_fields, type_label)

__all__ = ["summarize"]

_MISSING = object()
_NONE_TYPE = type(None)
_PRIMITIVES = (str, int, float, bool, _NONE_TYPE)


def _inline_value(obj):
    """A JSON value for a small primitive or a short flat list/tuple/dict of them, else _MISSING."""
    t = type(obj)
    if t in _PRIMITIVES:
        fields = scalar_fields(obj, INLINE_STR_LIMIT)
        return fields["value"] if "value" in fields else _MISSING
    if t in (list, tuple, dict) and len(obj) <= INLINE_ITEMS:
        total = 0
        pairs = obj.items() if t is dict else ((None, v) for v in obj)
        out_list, out_dict = [], {}
        for key, value in pairs:
            if t is dict and (type(key) is not str or len(key) > 100):
                return _MISSING
            if type(value) not in _PRIMITIVES:
                return _MISSING
            fields = scalar_fields(value, INLINE_ITEM_STR_LIMIT)
            if "value" not in fields:
                return _MISSING
            total += len(key or "") + (len(value) if type(value) is str else 8)
            if total > INLINE_TOTAL_CHARS:
                return _MISSING
            if t is dict:
                out_dict[key] = value
            else:
                out_list.append(value)
        return out_dict if t is dict else out_list
    return _MISSING


def summarize(obj, *, context_values: bool, handle: str | None = None) -> dict:
    """Structural summary for the request: descriptor fields, then either the value (small
    primitives, when context_values) or type, size, keys/field types, first item's type."""
    d = descriptor(obj, handle, str_limit=-1)
    d.pop("value", None)
    if context_values:
        value = _inline_value(obj)
        if value is not _MISSING:
            d.pop("length", None)
            d["value"] = value
            return d
    cls = type(obj)
    if cls is str:
        d["length"] = len(obj)
        if context_values:
            d["preview"] = obj[:PREVIEW_CHARS]
        return d
    if cls in (int, float) and not context_values:
        d.pop("text", None)
    if issubclass(cls, type):
        d["kind"] = "class"
        dc = dataclass_fields(obj)
        if dc:
            d["dataclass_fields"] = {n: annotation_text(f.type) for n, f in list(dc.items())[:FIELDS_LIMIT]}
        return d
    if cls is FUNCTION_TYPE:
        d["kind"] = "function"
        d["signature"] = function_signature(obj)
        return d
    if cls is MODULE_TYPE:
        d["kind"] = "module"
        return d
    base = builtin_base(cls)
    if base is dict:
        _summarize_dict(obj, d, context_values)
    elif base in (list, tuple, set, frozenset):
        for first in base.__iter__(obj):
            d["item_type"] = type_label(type(first))
            break
    if base is None or cls is not base:
        fields = instance_fields(obj)
        if fields:
            d["fields"] = {name: type_label(type(value)) for name, value in fields[:FIELDS_LIMIT]}
            if len(fields) > FIELDS_LIMIT:
                d["fields_truncated"] = True
    return d


def _summarize_dict(obj, d: dict, context_values: bool) -> None:
    # Keys are structure when they look like identifiers; with context_values off, other str
    # keys (emails, ids, free text) are data and are left out.
    keys: dict[str, str] = {}
    other = None
    for key, value in dict.items(obj):
        if type(key) is str and (context_values or (key.isidentifier() and len(key) <= 40)):
            if len(keys) < FIELDS_LIMIT:
                keys[key[:100]] = type_label(type(value))
            else:
                d["keys_truncated"] = True
        elif other is None:
            other = (key, value)
    if keys:
        d["keys"] = keys
    if other is not None:
        d["key_type"] = type_label(type(other[0]))
        d["value_type"] = type_label(type(other[1]))
