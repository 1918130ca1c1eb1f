"""bytecode_handler.write_handler's handler written from a shape made once per process
(bytecode_shape.py): the same bytes, positions and exception-table entries as the Assembler
lays out (a test compares the two on every handler it meets), at a fraction of the cost.

A Template holds one code object's two sides of each shape with its constant and name indexes
in place; `write` sets K's index, the store instruction and the jump distances of the copy's
length at their offsets, puts the statement's units between the two sides and gives the
handler's entries. It gives None
where an argument would need EXTENDED_ARG (a long copy, 256 or more constants or names);
bytecode_instrument.py then uses the Assembler.
"""

from __future__ import annotations

from .bytecode_code import CACHES, EXTENDED_ARG, OP
from .bytecode_shape import for_length, shape as _shape

METHODS = ("retry", "keep", "forget", "raising", "binding", "value", "returned")
_JUMP_BACKWARD = OP["JUMP_BACKWARD"]


class Template:
    """One code object's handlers: its constant and name indexes for the shapes' slots."""

    def __init__(self, table, placeholders):
        runtime, exception, recursion = (table.const(value) for value in placeholders)
        self.values = {"runtime": runtime, "exception": exception, "recursion": recursion, None: 0}
        self.values.update((method, table.name(method)) for method in METHODS)
        self.usable = max(self.values.values()) < 256
        self._arguments: dict = {}

    def _prepared(self, variant):
        """The shape and the bytes of its two sides with the constants in place."""
        prepared = self._arguments.get(variant)
        if prepared is None:
            shape, values = _shape(variant), self.values
            sides = [bytearray(side) for side in shape.raw]
            for side, offset, name in shape.consts:
                sides[side][offset] = values[name]
            prepared = self._arguments[variant] = (shape, bytes(sides[0]), bytes(sides[1]))
        return prepared

    def write(self, point, key: int, base: int):
        """(bytes, position segments, entries) of `point`'s handler at unit `base`, or None."""
        store = point.store
        if key > 255 or (store is not None and (store[1] > 255 or CACHES[OP[store[0]]])):
            return None
        shape, before, after = self._prepared((store is not None, point.returns))
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
        depth, outer = point.depth, point.outer
        if outer is None:
            entries = [[base + start, end if until is None else base + until, base + handler, depth + extra, lasti]
                       for start, until, handler, extra, lasti in lengths[2] if handler is not None]
        else:
            target, outer_depth, outer_lasti = outer[2], outer[3], outer[4]
            entries = [[base + start, end if until is None else base + until, target, outer_depth, outer_lasti]
                       if handler is None else
                       [base + start, end if until is None else base + until, base + handler, depth + extra, lasti]
                       for start, until, handler, extra, lasti in lengths[2]]
        prefix = shape.units[0]
        segments = [(prefix, point.position), point.copy_positions, (end - base - prefix - n, point.position)]
        return bytes(out), segments, entries


def _jump_back(out: bytearray, unit: int, target: int) -> None:
    """JUMP_BACKWARD to `target` from `unit`, with the EXTENDED_ARG prefixes it needs."""
    extension = 0
    while unit + extension + 1 - target >= 256 ** (extension + 1):
        extension += 1
    distance = unit + extension + 1 - target
    for shift in range(extension, 0, -1):
        out.extend((EXTENDED_ARG, (distance >> (8 * shift)) & 0xFF))
    out.extend((_JUMP_BACKWARD, distance & 0xFF))
