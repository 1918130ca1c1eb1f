"""The line of a checkpoint handler's first instruction, so that a tracer sees no line event there.

CPython's compiler gives an `except` handler's first instruction (PUSH_EXC_INFO) no position: a
user's handler begins its own line (`except ValueError:`), which a tracer is told of. A
checkpoint's handler (instrument.py) is on the statement's own line; from no position to that
line, `sys.settrace` functions (pdb, `-m trace`) would see a line event python3, where the
statement's exception simply leaves the frame, has no reason to report. So each checkpoint
handler's first instruction gets the position of the instruction after it (the statement's): it
is on the line the failing instruction was, and CPython reports no line change. On 3.12+ the
handler's cleanup, from where the exception leaves the frame, gets it too (sys.monitoring's
PY_UNWIND then names the statement's line, as under python3).

Only in code whose every `except` handler is a checkpoint's (`_handlers_all_ours`): a handler's
first instruction with a line is where CPython lets a debugger's jump from inside an `except` or
`finally` block land, and it fails there (test_sys_settrace's jumps out of `except` blocks). Code
with a `try` or `with` of its own keeps the compiler's positions and its one extra line event.

`placed(code)` does it to an instrumented code object compiled from the AST and the code objects
nested in it, before binding (the handler's second instruction loads a placeholder constant:
that is how a checkpoint's handler is told from the program's own). The location table is the
format of CPython 3.11 and later (Objects/locations.md). 3.11's bytecode checkpoints
(bytecode/instrument.py) lay out their own positions.
"""

from ..preparation.code_constants import CALLS, EXCEPTION, RECURSION_ERROR
from ..pycompat import CLEANUP_AT_STATEMENT
from .location_table import Locations

__all__ = ["placed"]

_CODE = type(compile("", "", "exec"))
_LOAD_CONST = compile("x = 0", "", "exec").co_code[2]  # unit 1: the first unit is RESUME
_HANDLED = compile("try:\n    x\nexcept:\n    pass\n", "", "exec")
_PUSH_EXC_INFO = bytes((_HANDLED.co_code[2 * (_HANDLED.co_exceptiontable[2] & 63)], 0))  # the handler's first unit
_POP_TOP = bytes((compile("x", "", "exec").co_code[4], 0))  # RESUME, LOAD_NAME x, POP_TOP
_FIRST_LOADS = (RECURSION_ERROR, EXCEPTION)  # `except RecursionError:` (the outer handler), `except Exception:` (the retry's)


def placed(code):
    """`code` with its checkpoint handlers' first instructions placed (and its nested code's)."""
    consts = code.co_consts
    nested = [placed(value) if type(value) is _CODE else value for value in consts]
    if any(new is not old for new, old in zip(nested, consts)):
        code = code.replace(co_consts=tuple(nested))
    starts = _first_loads(code)
    if not starts or not _handlers_all_ours(code, starts):
        return code
    locations, changes = Locations(code), {}
    for unit in starts:
        if locations.nowhere(unit):
            where = changes[unit] = locations.position(unit + 1)
            if CLEANUP_AT_STATEMENT:
                changes.update((cleanup, where) for cleanup in _cleanup(code, unit) if locations.nowhere(cleanup))
    return code.replace(co_linetable=locations.relocated(changes)) if changes else code


def _first_loads(code) -> list:
    """The units right before a load of a checkpoint handler's first placeholder: where its
    handlers begin (PUSH_EXC_INFO)."""
    raw, units = code.co_code, []
    for placeholder in _FIRST_LOADS:
        load = _load_of(code.co_consts, placeholder)
        if load is None:  # none, or loaded after an EXTENDED_ARG: left as the compiler placed it
            continue
        at = raw.find(load, 2)
        while at != -1:
            if at % 2 == 0:
                units.append(at // 2 - 1)
            at = raw.find(load, at + 1)
    return units


def _handlers_all_ours(code, starts) -> bool:
    """Whether every `except` handler of `code` (PUSH_EXC_INFO) is a checkpoint's: its `except`
    tests (`starts`) and its `except: forget[K]`. Only then is a placed first instruction safe
    from a debugger's jump (`frame.f_lineno = N`): CPython takes a handler's start as a target
    for a jump from inside an `except` or `finally` block, which holds what a handler's start
    expects on the stack, and PUSH_EXC_INFO without its exception fails. Where the program has a
    handler of its own (`try`, `with`) in the same code, nothing is placed."""
    raw, ours = code.co_code, set(starts)
    forget_load = _load_of(code.co_consts, CALLS["forget"])
    at = raw.find(_PUSH_EXC_INFO)
    while at != -1:
        if at % 2 == 0 and at // 2 not in ours and raw[at + 2:at + 6] != _POP_TOP + (forget_load or b"--"):
            return False
        at = raw.find(_PUSH_EXC_INFO, at + 1)
    return True


def _load_of(consts, placeholder):
    """`LOAD_CONST i` of `placeholder`, or None (absent, or its index needs an EXTENDED_ARG)."""
    if placeholder not in consts:
        return None
    index = consts.index(placeholder)
    return bytes((_LOAD_CONST, index)) if index < 256 else None


def _cleanup(code, handler: int) -> range:
    """The units of the cleanup (`COPY 3; POP_EXCEPT; RERAISE 1`) of the handler beginning at unit
    `handler`: the target of the exception-table entry that begins there, where the exception
    leaves the frame. An entry's first byte is the only one with its top bit set, so the encoded
    start is found without reading the table."""
    table = code.co_exceptiontable
    at = table.find(_exception_number(handler, 128))
    if at == -1:
        return range(0)
    _, at = _read_exception_number(table, at)
    _, at = _read_exception_number(table, at)  # the entry's length
    target, _ = _read_exception_number(table, at)
    return range(target, min(target + 3, len(code.co_code) // 2))


def _exception_number(value: int, first: int) -> bytes:
    """An exception-table number: 6-bit chunks, the most significant first, 64 on all but the last."""
    chunks = [value & 63]
    value >>= 6
    while value:
        chunks.append(64 | (value & 63))
        value >>= 6
    chunks[-1] |= first
    return bytes(reversed(chunks))


def _read_exception_number(table: bytes, at: int):
    value = table[at] & 63
    while table[at] & 64:
        at += 1
        value = (value << 6) | (table[at] & 63)
    return value, at + 1
