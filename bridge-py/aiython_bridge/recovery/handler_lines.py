"""The line of a checkpoint handler's first instruction, so that a tracer sees no line event there.

CPython's compiler gives an `except` handler's first instruction (PUSH_EXC_INFO) no position: a
user's handler begins its own line (`except ValueError:`), which a tracer is told of. A
checkpoint's handler (instrument.py) is on the statement's own line; from no position to that
line, `sys.settrace` functions (pdb, `-m trace`) would see a line event python3, where the
statement's exception simply leaves the frame, has no reason to report. So each checkpoint
handler's first instruction gets the position of the instruction after it (the statement's): it
is on the line the failing instruction was, and CPython reports no line change.

`placed(code)` does it to an instrumented code object compiled from the AST and the code objects
nested in it, before binding (the handler's second instruction loads a placeholder constant:
that is how a checkpoint's handler is told from the program's own). The location table is the
format of CPython 3.11 and later (Objects/locations.md). 3.11's bytecode checkpoints
(bytecode/instrument.py) lay out their own positions.
"""

from ..preparation.code_constants import EXCEPTION, RECURSION_ERROR
from ..pycompat import CLEANUP_AT_STATEMENT

__all__ = ["placed"]

_CODE = type(compile("", "", "exec"))
_LOAD_CONST = compile("x = 0", "", "exec").co_code[2]  # unit 1: the first unit is RESUME
_FIRST_LOADS = (RECURSION_ERROR, EXCEPTION)  # `except RecursionError:` (the outer handler), `except Exception:` (the retry's)
_NOWHERE = (None, None, None, None)


def placed(code):
    """`code` with its checkpoint handlers' first instructions placed (and its nested code's)."""
    consts = code.co_consts
    nested = [placed(value) if type(value) is _CODE else value for value in consts]
    if any(new is not old for new, old in zip(nested, consts)):
        code = code.replace(co_consts=tuple(nested))
    entries = _entries(code)
    if not entries:
        return code
    positions = list(code.co_positions())
    raw, changed = code.co_code, False
    for unit in {target for _, _, target in entries}:
        following = unit + 1
        if positions[unit] != _NOWHERE or following >= len(positions) or raw[2 * following] != _LOAD_CONST:
            continue
        if consts[raw[2 * following + 1]] in _FIRST_LOADS:
            where = positions[unit] = positions[following]
            changed = True
            if CLEANUP_AT_STATEMENT:
                _place_cleanups(positions, entries, following, where)
    return code.replace(co_linetable=_table(positions, code.co_firstlineno)) if changed else code


def _place_cleanups(positions, entries, inside: int, where) -> None:
    """The cleanup of the handler whose body holds unit `inside` (`COPY 3; POP_EXCEPT; RERAISE 1`,
    no position) at the statement's position: the exception leaves the frame from there."""
    for start, end, target in entries:
        if start <= inside < end and positions[target] == _NOWHERE:
            for unit in range(target, min(target + 3, len(positions))):
                if positions[unit] == _NOWHERE:
                    positions[unit] = where


def _entries(code) -> list:
    """The exception table's entries as (start, end, handler) units."""
    table, entries, at, fields = code.co_exceptiontable, [], 0, []
    while at < len(table):
        value = table[at] & 63
        while table[at] & 64:
            at += 1
            value = (value << 6) | (table[at] & 63)
        at += 1
        fields.append(value)
        if len(fields) == 4:
            entries.append((fields[0], fields[0] + fields[1], fields[2]))
            fields = []
    return entries


def _table(positions, line: int) -> bytes:
    """A location table for one position per code unit; `line` the code's first line."""
    out, index = bytearray(), 0
    while index < len(positions):
        position, count = positions[index], 1
        while count < 8 and index + count < len(positions) and positions[index + count] == position:
            count += 1
        index += count
        start, end_line, column, end_column = position
        if start is None:
            out.append(128 | (15 << 3) | (count - 1))
            continue
        out.append(128 | ((13 if column is None or end_column is None else 14) << 3) | (count - 1))
        _signed(start - line, out)
        line = start
        if column is not None and end_column is not None:
            _unsigned(end_line - start, out)
            _unsigned(column + 1, out)
            _unsigned(end_column + 1, out)
    return bytes(out)


def _unsigned(value: int, out: bytearray) -> None:
    while value >= 64:
        out.append(64 | (value & 63))
        value >>= 6
    out.append(value)


def _signed(value: int, out: bytearray) -> None:
    _unsigned((value << 1) if value >= 0 else ((-value) << 1) | 1, out)
