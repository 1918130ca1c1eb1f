"""A code object's location table (CPython 3.11 and later, Objects/locations.md), read and
written only around the units that change: `Locations(code).relocated({unit: position})`.
recovery/handler_lines.py places checkpoint handlers' instructions with it.
"""

from bisect import bisect_right
from itertools import accumulate, groupby

__all__ = ["NOWHERE", "Locations"]

NOWHERE = (None, None, None, None)
_UNITS = bytes((byte & 7) + 1 if byte & 128 else 0 for byte in range(256))  # per location-table byte


class Locations:
    """One code object's location table, read only where asked: an entry's first byte is the only
    one with its top bit set, its low 3 bits are its units less one, and its lines come from
    co_lines(); only the entries around a change are decoded and written again."""

    def __init__(self, code):
        self.code, self.table = code, code.co_linetable
        self.covered = list(accumulate(self.table.translate(_UNITS)))  # units covered by the entries begun up to each byte
        self.lines = [(start // 2, line) for start, _, line in code.co_lines()]
        self.starts = [start for start, _ in self.lines]

    def nowhere(self, unit: int) -> bool:
        return (self.table[bisect_right(self.covered, unit)] >> 3) & 15 == 15

    def position(self, unit: int):
        at = bisect_right(self.covered, unit)
        return _decoded(self.table, at, self.lines[bisect_right(self.starts, unit) - 1][1])

    def relocated(self, changes: dict) -> bytes:
        """The table with `changes` (unit → position, each unit now without one): each stretch from
        the entry holding a changed unit through the first entry with a line after it is written
        again, so the entries after it keep their line deltas."""
        table, covered, stretches = self.table, self.covered, []
        for unit in sorted(changes):
            first = bisect_right(covered, unit)
            if stretches and first < stretches[-1][1]:
                first = stretches.pop()[0]
            end = bisect_right(covered, covered[first])
            while end < len(table) and (table[end] >> 3) & 15 == 15:  # no location: no line to keep
                end = bisect_right(covered, covered[end])
            if end < len(table):
                end = bisect_right(covered, covered[end])  # through the entry with a line
            stretches.append((first, end))
        out, kept = [], len(table)
        for first, end in reversed(stretches):
            out += [table[end:kept], self._written(first, end, changes)]
            kept = first
        out.append(table[:kept])
        return b"".join(reversed(out))

    def _written(self, first: int, end: int, changes: dict) -> bytes:
        table, covered, positions = self.table, self.covered, []
        begin = covered[first] - (table[first] & 7) - 1
        at = first
        while at < end:
            count = (table[at] & 7) + 1
            unit = covered[at] - count
            position = self.position(unit) if (table[at] >> 3) & 15 != 15 else NOWHERE
            positions += [changes.get(u, position) for u in range(unit, unit + count)]
            at = bisect_right(covered, covered[at])
        index = bisect_right(self.starts, begin - 1) - 1
        while index >= 0 and self.lines[index][1] is None:
            index -= 1
        return _table(positions, self.lines[index][1] if index >= 0 else self.code.co_firstlineno)


def _decoded(table: bytes, at: int, line):
    """The position of the entry at byte `at`, whose line is `line` (Objects/locations.md)."""
    code = (table[at] >> 3) & 15
    if code == 15:
        return NOWHERE
    if code < 10:  # short form
        second = table[at + 1]
        column = code * 8 + ((second >> 4) & 7)
        return (line, line, column, column + (second & 15))
    if code < 13:  # one line
        return (line, line, table[at + 1], table[at + 2])
    if code == 13:  # no columns
        return (line, line, None, None)
    _, at = _read_location_number(table, at + 1)  # the line's delta
    span, at = _read_location_number(table, at)
    column, at = _read_location_number(table, at)
    end_column, _ = _read_location_number(table, at)
    return (line, line + span, column - 1 if column else None, end_column - 1 if end_column else None)


def _read_location_number(table: bytes, at: int):
    """A location-table varint: 6-bit chunks, the least significant first, 64 on all but the last."""
    value, shift = table[at] & 63, 6
    while table[at] & 64:
        at += 1
        value |= (table[at] & 63) << shift
        shift += 6
    return value, at + 1


def _table(positions, line: int) -> bytes:
    """A location table for one position per code unit; `line` the code's first line."""
    out = bytearray()
    for position, run in groupby(positions):
        count = len(list(run))
        start, end_line, column, end_column = position
        if start is None:
            while count > 0:
                out.append(0xF8 | (min(count, 8) - 1))  # code 15: no location
                count -= 8
            continue
        if column is None or end_column is None:
            tail = b""
            code = 0xE8  # code 13: a line, no columns
        else:
            tail = bytearray()
            _unsigned(end_line - start, tail)
            _unsigned(column + 1, tail)
            _unsigned(end_column + 1, tail)
            code = 0xF0  # code 14: the long form
        delta = start - line
        first = bytearray((code | (min(count, 8) - 1),))
        _signed(delta, first)
        out += first + tail
        count -= 8
        while count > 0:  # the same position again: a line delta of 0
            out += bytes((code | (min(count, 8) - 1), 0)) + tail
            count -= 8
        line = start
    return bytes(out)


def _unsigned(value: int, out: bytearray) -> None:
    while value >= 64:
        out.append(64 | (value & 63))
        value >>= 6
    out.append(value)


def _signed(value: int, out: bytearray) -> None:
    _unsigned((value << 1) if value >= 0 else ((-value) << 1) | 1, out)
