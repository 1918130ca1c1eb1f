"""Assembling code appended to a 3.11 code object (handler.py writes the handlers with
it): instructions with symbolic jump targets, raw copies of existing units, each unit tagged
with its position and its exception-table region; `assemble` lays them out (EXTENDED_ARG where
an argument needs it, inline caches zeroed) and gives the bytes, the per-unit positions and the
exception-table entries of the regions.
"""

from __future__ import annotations

from .code import BACKWARD, CACHES, EXTENDED_ARG, OP

__all__ = ["Assembler", "Label", "OUTER", "Region", "assemble", "jump_to_unit", "region_entries"]

OUTER = "outer"  # the region of the statement itself: the entry that covered it, or none


class Label:
    __slots__ = ("unit",)

    def __init__(self):
        self.unit = None


class Region:
    """An exception-table region: covered units go to `handler` with `depth` (and lasti)."""

    __slots__ = ("handler", "depth", "lasti")

    def __init__(self, handler: Label, depth: int, lasti: int):
        self.handler, self.depth, self.lasti = handler, depth, lasti


class Assembler:
    """Code appended after unit `base`; `position` is the default position of instructions."""

    def __init__(self, base: int, position):
        self.base, self.position = base, position
        self.items: list = []
        self.region = OUTER

    def op(self, name: str, arg=0) -> None:
        self.items.append([OP[name], arg, self.region, self.position, 0])

    def raw(self, data: bytes, positions) -> None:
        self.items.append((data, positions, self.region))

    def label(self, label: Label) -> None:
        self.items.append(label)

    def at(self, region) -> None:
        self.region = region


def _extension(arg: int) -> int:
    return 0 if arg < 0x100 else 1 if arg < 0x10000 else 2 if arg < 0x1000000 else 3


def _layout(items, base) -> bool:
    """Give every label its unit; True when every jump's EXTENDED_ARG count held."""
    unit, jumps = base, []
    for item in items:
        if type(item) is Label:
            item.unit = unit
        elif type(item) is tuple:
            unit += len(item[0]) // 2
        else:
            op, arg = item[0], item[1]
            if type(arg) is Label or type(arg) is int and arg < 0:
                jumps.append((item, unit))
            else:
                item[4] = _extension(arg)
            unit += item[4] + 1 + CACHES[op]
    stable = True
    for item, start in jumps:
        after = start + item[4] + 1 + CACHES[item[0]]
        target = item[1].unit if type(item[1]) is Label else -item[1] - 1
        distance = after - target if item[0] in BACKWARD else target - after
        if distance < 0:
            raise ValueError("jump in the wrong direction")
        needed = _extension(distance)
        if needed > item[4]:
            item[4], stable = needed, False
    return stable


def jump_to_unit(unit: int) -> int:
    """The `arg` of an instruction jumping to an existing unit (not a label)."""
    return -unit - 1


def assemble(asm: Assembler):
    """(bytes, positions per unit, regions per unit) of the appended code."""
    items = asm.items
    while not _layout(items, asm.base):
        pass
    out, positions, regions = bytearray(), [], []
    unit = asm.base
    for item in items:
        if type(item) is Label:
            continue
        if type(item) is tuple:
            data, where, region = item
            out += data
            positions.extend(where)
            regions.extend([region] * (len(data) // 2))
            unit += len(data) // 2
            continue
        op, arg, region, position, extension = item
        size = extension + 1 + CACHES[op]
        if type(arg) is Label or type(arg) is int and arg < 0:
            after = unit + size
            target = arg.unit if type(arg) is Label else -arg - 1
            arg = after - target if op in BACKWARD else target - after
        for shift in range(extension, 0, -1):
            out += bytes((EXTENDED_ARG, (arg >> (8 * shift)) & 0xFF))
        out += bytes((op, arg & 0xFF))
        out += bytes(2 * CACHES[op])
        positions.extend([position] * size)
        regions.extend([region] * size)
        unit += size
    return bytes(out), positions, regions


def region_entries(regions, base: int, outer) -> list:
    """Exception-table entries ([start, end, target, depth, lasti]) of the appended units;
    `outer` is the entry OUTER units take (or None: no entry)."""
    entries, start = [], 0
    count = len(regions)
    while start < count:
        region = regions[start]
        end = start + 1
        while end < count and regions[end] is region:
            end += 1
        if region is OUTER:
            if outer is not None:
                entries.append([base + start, base + end, outer[2], outer[3], outer[4]])
        else:
            entries.append([base + start, base + end, region.handler.unit, region.depth, region.lasti])
        start = end
    return entries
