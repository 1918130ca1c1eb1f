"""handler.write_handler's handler written from a shape made once per process
(shape.py): the same bytes, positions and exception-table entries as the Assembler
lays out (a test compares the two on every handler it meets), at a fraction of the cost.

A Template holds one code object's two sides of each shape with its constant indexes in place; `write` sets K's index, the store instruction and the jump distances of the copy's
length at their offsets, puts the statement's units between the two sides and gives the
handler's entries. It gives None
where an argument would need EXTENDED_ARG (a long copy, 256 or more constants);
instrument.py then uses the Assembler.
"""

from __future__ import annotations

from .code import CACHES, EXTENDED_ARG, FIRST_VARINTS, NEXT_VARINTS, OP, encode_exception_entries
from .shape import for_length, shape as _shape

__all__ = ["Template"]

_JUMP_BACKWARD = OP["JUMP_BACKWARD"]


class Template:
    """One code object's handlers: its constant indexes for the shapes' slots (a call's
    placeholder is added to the constants when a handler first uses it)."""

    def __init__(self, table, placeholders):
        calls, exception, recursion = placeholders
        self._table, self._calls = table, calls
        self.values = {"exception": table.const(exception), "recursion": table.const(recursion), None: 0}
        self.usable = max(self.values.values()) < 256
        self._arguments: dict = {}

    def _prepared(self, variant):
        """The shape and the bytes of its two sides with the constants in place; None where a
        constant's index would need EXTENDED_ARG."""
        prepared = self._arguments.get(variant, False)
        if prepared is False:
            shape = _shape(variant)
            values = [self._value(name) for _, _, name in shape.consts]
            sides = [bytearray(side) for side in shape.raw]
            for (side, offset, _), value in zip(shape.consts, values):
                sides[side][offset] = value & 0xFF
            fits = max(values) < 256
            prepared = self._arguments[variant] = (shape, bytes(sides[0]), bytes(sides[1])) if fits else None
        return prepared

    def _value(self, name) -> int:
        value = self.values.get(name)
        if value is None:
            value = self.values[name] = self._table.const(self._calls[name])
        return value

    def write(self, point, key: int, base: int):
        """(bytes, position segments, encoded exception-table entries) of `point`'s handler at
        unit `base`, or None."""
        store = point.store
        if key > 255 or (store is not None and (store[1] > 255 or CACHES[OP[store[0]]])):
            return None
        prepared = self._prepared((store is not None, point.returns))
        if prepared is None:
            return None
        shape, before, after = prepared
        copy = point.copy
        n = len(copy) // 2
        lengths = for_length(shape, n)
        if lengths is None:
            return None
        before, after = bytearray(before), bytearray(after)
        for offset in shape.keys[0]:
            before[offset] = key
        for offset in shape.keys[1]:
            after[offset] = key
        for _, offset, distance in lengths[0]:
            before[offset] = distance
        for _, offset, distance in lengths[1]:
            after[offset] = distance
        for offset in shape.stores:
            after[offset], after[offset + 1] = OP[store[0]], store[1]
        out = before + copy + after
        _jump_back(out, base + len(out) // 2, point.end)
        end = base + len(out) // 2
        prefix = shape.units[0]
        segments = [(prefix, point.position), point.copy_positions, (end - base - prefix - n, point.position)]
        return bytes(out), segments, _entries(lengths[2], base, end, point.depth, point.outer)


def _entries(regions, base: int, end: int, depth: int, outer) -> bytes:
    """The exception-table entries of a handler's regions, encoded (values under 4096 from
    code.py's tables, as encode_exception_entries encodes them)."""
    parts, first, following = [], FIRST_VARINTS, NEXT_VARINTS
    for start, until, handler, extra, lasti in regions:
        if handler is None:
            if outer is None:
                continue
            target, packed = outer[2], outer[3] << 1 | outer[4]
        else:
            target, packed = base + handler, (depth + extra) << 1 | lasti
        start += base
        length = (end if until is None else base + until) - start
        if start < 4096 and target < 4096 and length < 4096 and packed < 4096:
            parts += (first[start], following[length], following[target], following[packed])
        else:
            parts.append(encode_exception_entries([[start, start + length, target, packed >> 1, packed & 1]]))
    return b"".join(parts)


def _jump_back(out: bytearray, unit: int, target: int) -> None:
    """JUMP_BACKWARD to `target` from `unit`, with the EXTENDED_ARG prefixes it needs."""
    extension = 0
    while unit + extension + 1 - target >= 256 ** (extension + 1):
        extension += 1
    distance = unit + extension + 1 - target
    for shift in range(extension, 0, -1):
        out.extend((EXTENDED_ARG, (distance >> (8 * shift)) & 0xFF))
    out.extend((_JUMP_BACKWARD, distance & 0xFF))
