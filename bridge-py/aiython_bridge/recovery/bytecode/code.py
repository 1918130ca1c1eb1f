"""Reading and writing CPython 3.11 code objects for the bytecode checkpoint path
(instrument.py): the instructions of `co_code` (EXTENDED_ARG prefixes, inline caches,
relative jump targets), the exception table (Objects/exception_handling_notes.txt) and the
location table entries of appended code (Objects/locations.md); the stack depths are
depths.py's. Offsets are in code units (2 bytes), as both tables count them.

Only 3.11's formats: pycompat.BYTECODE_CHECKPOINTS gates every caller.
"""

from __future__ import annotations

import opcode

__all__ = [
    "ARG", "BACKWARD", "CACHES", "END", "EXTENDED_ARG", "FIRST_VARINTS", "JUMPS", "NAME",
    "NEXT_VARINTS", "OP", "OPCODE", "RETURN_GENERATOR", "START", "TARGET", "TERMINAL",
    "UNCONDITIONAL", "UNIT", "encode_exception_entries", "exception_entries", "instructions",
    "location_entries",
]

OP = opcode.opmap
NAME = opcode.opname  # by opcode
CACHES = opcode._inline_cache_entries
EXTENDED_ARG = OP["EXTENDED_ARG"]
BACKWARD = frozenset(OP[name] for name in ("JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "POP_JUMP_BACKWARD_IF_FALSE",
                                            "POP_JUMP_BACKWARD_IF_TRUE", "POP_JUMP_BACKWARD_IF_NONE",
                                            "POP_JUMP_BACKWARD_IF_NOT_NONE"))
JUMPS = frozenset(opcode.hasjrel)
UNCONDITIONAL = frozenset(OP[name] for name in ("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"))
TERMINAL = frozenset(OP[name] for name in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE"))
RETURN_GENERATOR = OP["RETURN_GENERATOR"]


# An instruction is the tuple (start, unit, op, arg, end, target): `start` its first unit (an
# EXTENDED_ARG prefix if any), `unit` the opcode's, `end` the unit after its caches and, for a
# jump, `target` (else None). Plain tuples: a module's code holds thousands.
START, UNIT, OPCODE, ARG, END, TARGET = range(6)


_SIZES = tuple(1 + CACHES[op] for op in range(256))  # units of an instruction, by opcode
_DIRECTION = tuple(-1 if op in BACKWARD else 1 if op in JUMPS else 0 for op in range(256))  # of its jump


def instructions(raw: bytes):
    """(the instructions, {start unit: index}, {jump target or handler unit: [source start, …]}):
    one pass over `raw`; the caller adds the exception table's handlers to the targets."""
    found, by_start, targets, start, arg, unit = [], {}, {}, 0, 0, 0
    append, sizes, direction = found.append, _SIZES, _DIRECTION
    units = len(raw) // 2
    while unit < units:
        op = raw[2 * unit]
        arg = arg | raw[2 * unit + 1]
        if op == EXTENDED_ARG:
            arg <<= 8
            unit += 1
            continue
        end = unit + sizes[op]
        way = direction[op]
        by_start[start] = len(found)
        if way:
            target = end + way * arg
            append((start, unit, op, arg, end, target))
            sources = targets.get(target)
            if sources is None:
                targets[target] = [start]
            else:
                sources.append(start)
        else:
            append((start, unit, op, arg, end, None))
        start = unit = end
        arg = 0
    return found, by_start, targets


def _varint_be(value: int, out: bytearray, first: bool) -> None:
    chunks = [value & 63]
    value >>= 6
    while value:
        chunks.append(value & 63)
        value >>= 6
    for position in range(len(chunks) - 1, -1, -1):
        byte = chunks[position] | (64 if position else 0)
        if first:
            byte |= 128
            first = False
        out.append(byte)


def exception_entries(table: bytes) -> list[list]:
    """[[start, end, target, depth, lasti]] in units, `end` exclusive."""
    values, value = [], 0
    for byte in table:
        value = (value << 6) | (byte & 63)
        if not byte & 64:
            values.append(value)
            value = 0
    return [[values[i], values[i] + values[i + 1], values[i + 2], values[i + 3] >> 1, values[i + 3] & 1]
            for i in range(0, len(values) - 3, 4)]


def _small_varints(mark: int) -> list:
    return [bytes((value | mark,)) if value < 64 else bytes(((value >> 6) | 64 | mark, value & 63))
            for value in range(4096)]


FIRST_VARINTS, NEXT_VARINTS = _small_varints(128), _small_varints(0)  # every value under 4096, encoded


def encode_exception_entries(entries) -> bytes:
    """The table of `entries` ([start, end, target, depth, lasti]), which must come sorted."""
    parts = []
    first, following = FIRST_VARINTS, NEXT_VARINTS
    for start, end, target, depth, lasti in entries:
        packed = depth << 1 | lasti
        if start < 4096 and target < 4096 and end - start < 4096 and packed < 4096:
            parts += (first[start], following[end - start], following[target], following[packed])
            continue
        out = bytearray()
        _varint_be(start, out, True)
        for value in (end - start, target, packed):
            _varint_be(value, out, False)
        parts.append(bytes(out))
    return b"".join(parts)


def _varint_le(value: int, out: bytearray) -> None:
    while value >= 64:
        out.append(64 | (value & 63))
        value >>= 6
    out.append(value)


def location_entries(segments, line: int) -> tuple[bytes, int]:
    """Location table entries (the long form) for appended units, after a table whose last entry
    with a line started at `line`; and the line the result ends on. `segments`: (count,
    position) runs, or lists of one position per unit."""
    out = bytearray()
    for segment in segments:
        if type(segment) is tuple:
            count, position = segment
            if count:
                line = _run(out, count, position, line)
            continue
        count, previous = 0, None
        for position in segment:
            if position == previous:
                count += 1
                continue
            if count:
                line = _run(out, count, previous, line)
            count, previous = 1, position
        if count:
            line = _run(out, count, previous, line)
    return bytes(out), line


def _run(out: bytearray, count: int, position, line: int) -> int:
    start, end_line, column, end_column = position
    if start is None or column is None:
        return _partial_run(out, count, start, line)
    delta = start - line
    zigzag = (delta << 1) if delta >= 0 else ((-delta) << 1) | 1
    span, column, end_column = end_line - start, column + 1, end_column + 1
    if count <= 8 and zigzag < 64 and span < 64 and column < 64 and end_column < 64:  # the usual: one entry of 5 bytes
        out += bytes((128 | (14 << 3) | (count - 1), zigzag, span, column, end_column))
        return start
    if span < 64 and column < 64 and end_column < 64:
        rest = bytes((span, column, end_column))  # each varint one byte
    else:
        rest = bytearray()
        _varint_le(span, rest)
        _varint_le(column, rest)
        _varint_le(end_column, rest)
    first = min(8, count)
    out.append(128 | (14 << 3) | (first - 1))
    if zigzag < 64:
        out.append(zigzag)
    else:
        _varint_le(zigzag, out)
    out += rest
    count -= first
    if count:
        full, left = divmod(count, 8)
        out += (bytes((128 | (14 << 3) | 7, 0)) + rest) * full  # the same position again: line delta 0
        if left:
            out += bytes((128 | (14 << 3) | (left - 1), 0)) + rest
    return start


def _partial_run(out: bytearray, count: int, start, line: int) -> int:
    """`count` units without a position (a constant the compiler loads before it sets one), or
    with a line only."""
    while count:
        units = min(8, count)
        if start is None:
            out.append(128 | (15 << 3) | (units - 1))
        else:
            out.append(128 | (13 << 3) | (units - 1))
            delta = start - line
            _varint_le((delta << 1) if delta >= 0 else ((-delta) << 1) | 1, out)
            line = start
        count -= units
    return line
