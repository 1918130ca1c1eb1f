"""Values crossing between a paused frame and a capability plan (SPEC §10, docs/protocol.md).

``read_values``: the JSON value of each ``$binding`` / ``$handle`` reference of a ``run_plan`` call,
read before the host validates the plan. Conversion is exact and calls no program code: builtin
scalars, lists, tuples and str-keyed dicts by exact type, and ``pathlib`` paths (through
``PurePath.__str__`` itself, only when the program already imported pathlib). Anything else fails
with a message naming the reference and what to do instead.

``hold_values``: capability results arrive as JSON texts (so ``1.0`` stays a float) and are held as
objects of the invocation, so the model can finish with their handles.
"""

from __future__ import annotations

import math
import sys

from aiython_bridge import json_codec

from .tool_error import ToolError

__all__ = ["MAX_CHARS", "MAX_DEPTH", "hold_values", "read_values", "to_json"]

MAX_DEPTH = 32
MAX_CHARS = 16 * 1024 * 1024


class _Budget:
    def __init__(self):
        self.chars = 0

    def spend(self, n: int, where: str) -> None:
        self.chars += n
        if self.chars > MAX_CHARS:
            raise ToolError("ValueError", f"{where} is larger than {MAX_CHARS // (1024 * 1024)} MiB as JSON; "
                            "write it to a file in the project and pass it as {\"$asset\": path}")


def _path_text(value):
    pathlib = sys.modules.get("pathlib")
    if pathlib is not None and isinstance(value, pathlib.PurePath):
        return pathlib.PurePath.__str__(value)
    return None


def to_json(value, where: str, budget: _Budget, depth: int = 0):
    """``value`` as a JSON-able value, exactly; see the module docstring."""
    if depth > MAX_DEPTH:
        raise ToolError("ValueError", f"{where} is nested deeper than {MAX_DEPTH} levels")
    kind = type(value)
    if value is None or kind is bool:
        return value
    if kind is int:
        budget.spend(24, where)
        return value
    if kind is float:
        if not math.isfinite(value):
            raise ToolError("ValueError", f"{where} holds {value!r}, which JSON cannot carry")
        budget.spend(24, where)
        return value
    if kind is str:
        budget.spend(len(value) + 2, where)
        return value
    if kind is list or kind is tuple:
        budget.spend(2, where)
        return [to_json(item, f"{where}[{i}]", budget, depth + 1) for i, item in enumerate(value)]
    if kind is dict:
        out = {}
        for key, item in dict.items(value):
            if type(key) is not str:
                raise ToolError("TypeError", f"{where} has a key of type {type(key).__name__}; only str keys can be sent")
            budget.spend(len(key) + 4, where)
            out[key] = to_json(item, f"{where}[{key!r}]", budget, depth + 1)
        return out
    text = _path_text(value)
    if text is not None:
        budget.spend(len(text) + 2, where)
        return text
    name = kind.__name__
    if kind is bytes or kind is bytearray:
        fix = "write the bytes to a file in the project and pass it as {\"$asset\": path}"
    else:
        fix = "pass its fields (str, numbers, lists, dicts) instead, or a file as {\"$asset\": path}"
    raise ToolError("TypeError", f"{where} is a {name}, which a capability step cannot take; {fix}")


def read_values(invocation, refs) -> dict:
    budget = _Budget()
    values = []
    for ref in refs:
        kind = ref.get("kind")
        if kind == "binding":
            name = ref["name"]
            value = invocation.get_binding_value(name)
            where = f"$binding {name!r}"
        elif kind == "handle":
            value = invocation.lookup_handle(ref["id"])
            where = f"$handle {ref['id']!r}"
        else:
            raise ToolError("ValueError", f"unknown reference kind {kind!r}")
        values.append(to_json(value, where, budget))
    return {"values": values}


def hold_values(invocation, texts) -> dict:
    descriptors = []
    for text in texts:
        if type(text) is not str:
            raise ToolError("TypeError", "values_json holds a non-string item")
        descriptors.append(invocation.descriptor(json_codec.decode(text)))
    return {"descriptors": descriptors}
