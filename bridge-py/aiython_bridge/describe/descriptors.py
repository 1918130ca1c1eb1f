"""Handle descriptors (SPEC §5.2) and the bounded structure `inspect` returns.

A descriptor names an object's type and carries the value of a primitive (ints only as wide as a
JSON double holds exactly; longer strings by length); `inspect_object` walks items and fields to
a bounded depth, each node a descriptor with its own handle, within a node and character budget.
"""

from __future__ import annotations

from .bounds import (CHILD_STR_LIMIT, INSPECT_CHAR_BUDGET, INSPECT_NODE_BUDGET, INT_TEXT_BITS, PREVIEW_CHARS,
                     SAFE_INT, STR_VALUE_LIMIT)
from .reading import (FUNCTION_TYPE, MODULE_NS, MODULE_TYPE, TYPE_BASES, TYPE_NS, annotation_text, builtin_base,
                      dataclass_fields, function_signature, instance_fields, is_dunder, type_label, type_names)

__all__ = ["descriptor", "inspect_object", "scalar_fields"]

TYPE_CHECKING = False  # typing is not imported at run time: the bridge must import cheaply
if TYPE_CHECKING:
    from typing import Callable

    HandleOf = Callable[[object], str]


def scalar_fields(obj, str_limit: int) -> dict:
    """Value (or stand-in) of an exact primitive; {} for anything else."""
    t = type(obj)
    if t is str:
        if len(obj) <= str_limit:
            return {"value": obj}
        return {"length": len(obj)}
    if t is bool or obj is None:
        return {"value": obj}
    if t is int:
        if -SAFE_INT <= obj <= SAFE_INT:
            return {"value": obj}
        if obj.bit_length() <= INT_TEXT_BITS:
            return {"text": str(obj)}
        return {"bits": obj.bit_length(), "negative": obj < 0}
    if t is float:
        finite = obj - obj == 0.0  # inf - inf and nan - nan are nan
        return {"value": obj} if finite else {"text": str(obj)}
    return {}


# The names and container base of the builtin types a frame holds most: fixed, so read once.
_BUILTIN_FACTS = {cls: (type_names(cls), builtin_base(cls))
                  for cls in (int, float, str, bool, type(None), bytes, list, dict, tuple, set, frozenset)}


def descriptor(obj, handle: str | None, *, str_limit: int = STR_VALUE_LIMIT) -> dict:
    """SPEC §5.2 handle descriptor: handle, type, module, qualname, plus the value of a primitive.

    int: a value only within ±(2**53 - 1), what a JSON double holds exactly; wider ints up to
    256 bits come as decimal "text", wider still as "bits". Non-finite floats come as "text".
    Strings longer than ``str_limit`` come as "length". Builtin containers add "length".
    """
    cls = type(obj)
    # type(cls) is type: a plain class, hashed by identity, so the lookup runs no program code.
    facts = _BUILTIN_FACTS.get(cls) if type(cls) is type else None
    if facts is None:
        facts = (type_names(cls), builtin_base(cls))
    (name, module, qualname), base = facts
    d = {} if handle is None else {"handle": handle}
    d.update(type=name, module=module, qualname=qualname)
    d.update(scalar_fields(obj, str_limit))
    if base is not None and base is not str:
        d["length"] = base.__len__(obj)
    return d


class _Budget:
    def __init__(self, nodes: int, chars: int):
        self.nodes = nodes
        self.chars = chars


def inspect_object(obj, handle_of: HandleOf, *, depth: int = 1, limit: int = 20) -> dict:
    """Bounded structure of ``obj``: ``depth`` (1–3) levels of items/fields, ``limit`` (1–100)
    per level, every node a descriptor with its own handle. "truncated" marks cut lists."""
    depth = max(1, min(3, int(depth)))
    limit = max(1, min(100, int(limit)))
    budget = _Budget(INSPECT_NODE_BUDGET, INSPECT_CHAR_BUDGET)
    return _inspect(obj, handle_of, depth, limit, budget, STR_VALUE_LIMIT)


def _inspect(obj, handle_of, depth, limit, budget, str_limit) -> dict:
    budget.nodes -= 1
    allowed = min(str_limit, max(0, budget.chars))
    d = descriptor(obj, handle_of(obj), str_limit=allowed)
    if type(d.get("value")) is str:
        budget.chars -= len(d["value"])
    elif type(obj) is str and "length" in d:
        d["preview"] = obj[: min(PREVIEW_CHARS, max(0, budget.chars))]
        budget.chars -= len(d["preview"])
    if depth <= 0:
        return d
    child = lambda value: _inspect(value, handle_of, depth - 1, limit, budget, CHILD_STR_LIMIT)
    cls = type(obj)
    base = builtin_base(cls)
    if issubclass(cls, type):
        _describe_class(obj, d, limit)
    elif cls is FUNCTION_TYPE:
        d["kind"] = "function"
        d["signature"] = function_signature(obj)
    elif cls is MODULE_TYPE:
        d["kind"] = "module"
        names = [n for n in MODULE_NS.__get__(obj) if type(n) is str and not n.startswith("_")]
        d["attributes"] = names[:limit]
        d["truncated"] = len(names) > limit
    elif base is dict:
        entries = []
        for key, value in dict.items(obj):
            if len(entries) >= limit or budget.nodes <= 0:
                d["truncated"] = True
                break
            entries.append({"key": child(key), "value": child(value)})
        d["entries"] = entries
    elif base in (list, tuple, set, frozenset):
        items = []
        for value in base.__iter__(obj):
            if len(items) >= limit or budget.nodes <= 0:
                d["truncated"] = True
                break
            items.append(child(value))
        d["items"] = items
    elif base in (bytes, bytearray):
        d["hex"] = base.hex(base.__getitem__(obj, slice(0, 64)))
    if base is None or cls is not base:
        fields = []
        for name, value in instance_fields(obj):
            if len(fields) >= limit or budget.nodes <= 0:
                d["truncated"] = True
                break
            fields.append({"name": name, "value": child(value)})
        if fields:
            d["fields"] = fields
    return d


def _describe_class(cls, d: dict, limit: int) -> None:
    d["kind"] = "class"
    d["name"] = type_names(cls)[2]
    d["bases"] = [type_label(b) for b in TYPE_BASES.__get__(cls)]
    names = [n for n in TYPE_NS.__get__(cls) if type(n) is str and not is_dunder(n)]
    d["attributes"] = names[:limit]
    if len(names) > limit:
        d["truncated"] = True
    dc = dataclass_fields(cls)
    if dc:
        d["dataclass_fields"] = {name: annotation_text(f.type) for name, f in list(dc.items())[:limit]}
