"""One checkpoint's handler, appended to its 3.11 code object (instrument.py): the same
calls, in the same order, with the same exception state as recovery/instrument.py's AST shape

    try: STMT
    except RecursionError: raise
    except Exception:
        if K in retry:
            try:
                while True:
                    try: STMT                      # the copy: units [a, b) again
                    except Exception:
                        if K in retry: continue
                    break
            except: forget[K]; raise
        if K in raising: raise
        if K in binding: NAME = value[K]           # the statement's own store instruction
        return returned[K]                         # `return` statements only

(each call a constant of the code, calls.py, tested with CONTAINS_OP or subscripted; K stands
for K + KEY_OFFSET; a retried `return EXPR` keeps its value as `keep[K] = EXPR`)

laid out as CPython's compiler lays out that shape (PUSH_EXC_INFO, CHECK_EXC_MATCH, a cleanup
`COPY 3; POP_EXCEPT; RERAISE 1` with lasti for each handler body, a bare `raise` as
RAISE_VARARGS 0), so the statement's units [a, b) only gain an exception-table entry: the hot
path runs exactly the instructions it ran before. The handler ends with POP_EXCEPT and a jump
back to b; for `return EXPR`, b is where EXPR's value is computed, and the jump brings the value
of `returned[K]` to the statement's own unwinding and RETURN_VALUE.
"""

from __future__ import annotations

from ...preparation.code_constants import ASKED, KEY_OFFSET
from .assembly import OUTER, Assembler, Label, Region, jump_to_unit

__all__ = ["Checkpoint", "Constants", "write_handler"]


class Checkpoint:
    """What the handler of one checkpoint statement needs, found by instrument.py."""

    __slots__ = ("index", "start", "end", "depth", "copy", "copy_positions", "store", "returns", "position", "outer")

    def __init__(self, index, start, end, depth, position):
        self.index, self.start, self.end, self.depth, self.position = index, start, end, depth, position
        self.copy = self.copy_positions = self.store = None
        self.returns = False  # `return EXPR`: `end` is where its value is computed, before its unwinding
        self.outer = None  # the existing exception-table entry that covers the statement, if any


class Constants:
    """The indexes of the names and constants the handlers load, appended to the code's own."""

    def __init__(self, consts, names):
        self.consts, self.names = list(consts), list(names)
        self._const_index: dict = {}
        self._name_index = {name: position for position, name in enumerate(self.names)}

    def const(self, value) -> int:
        key = (type(value), value)
        index = self._const_index.get(key)
        if index is None:
            index = self._const_index[key] = len(self.consts)
            self.consts.append(value)
        return index

    def name(self, value: str) -> int:
        index = self._name_index.get(value)
        if index is None:
            index = self._name_index[value] = len(self.names)
            self.names.append(value)
        return index


def write_handler(asm: Assembler, point: Checkpoint, table: Constants, placeholders) -> Label:
    """Append the handler of `point` to `asm`; the label of its first instruction."""
    calls, exception, recursion = placeholders
    exception, recursion = table.const(exception), table.const(recursion)
    key = table.const(point.index + KEY_OFFSET)
    depth = point.depth

    def call(method, head_only=False):  # K in NAME, or NAME[K]; head only: the constant and the key
        if method in ASKED:
            asm.op("LOAD_CONST", key)
            asm.op("LOAD_CONST", table.const(calls[method]))
            asm.op("CONTAINS_OP", 0)
            return
        asm.op("LOAD_CONST", table.const(calls[method]))
        asm.op("LOAD_CONST", key)
        if not head_only:
            asm.op("BINARY_SUBSCR")

    start, cleanup, reraise, not_recursion, decide = Label(), Label(), Label(), Label(), Label()
    outer_body = Region(cleanup, depth + 1, 1)
    asm.at(outer_body)
    asm.label(start)
    asm.op("PUSH_EXC_INFO")
    asm.op("LOAD_CONST", recursion)
    asm.op("CHECK_EXC_MATCH")
    asm.op("POP_JUMP_FORWARD_IF_FALSE", not_recursion)
    asm.op("POP_TOP")
    asm.op("RAISE_VARARGS", 0)
    asm.label(not_recursion)
    _exception_then_retry(asm, call, exception, reraise, decide)
    _retry_loop(asm, point, call, decide, outer_body, exception)
    asm.label(reraise)
    asm.op("RERAISE", 0)
    asm.at(OUTER)
    _cleanup(asm, cleanup)
    asm.at(outer_body)
    asm.label(decide)
    call("raising")
    raising = Label()
    asm.op("POP_JUMP_FORWARD_IF_FALSE", raising)
    asm.op("RAISE_VARARGS", 0)
    asm.label(raising)
    if point.store is not None:
        done = Label()
        call("binding")
        asm.op("POP_JUMP_FORWARD_IF_FALSE", done)
        call("value")
        asm.op(*point.store)
        asm.label(done)
    if point.returns:  # `return EXPR`: the value, for the statement's own unwinding at its end
        call("returned")
        asm.op("SWAP", 2)
    asm.at(OUTER)
    asm.op("POP_EXCEPT")
    asm.op("JUMP_BACKWARD", jump_to_unit(point.end))  # last: its EXTENDED_ARG moves nothing
    return start


def _exception_then_retry(asm, call, exception, not_matching, declined) -> None:
    """`except Exception:` (else to `not_matching`), then `if K in retry:` (else to `declined`)."""
    asm.op("LOAD_CONST", exception)
    asm.op("CHECK_EXC_MATCH")
    asm.op("POP_JUMP_FORWARD_IF_FALSE", not_matching)
    asm.op("POP_TOP")
    call("retry")
    asm.op("POP_JUMP_FORWARD_IF_FALSE", declined)


def _retry_loop(asm, point, call, decide, outer_body, exception) -> None:
    """`try: while True: try: STMT / except Exception: if R.retry(K): continue / break` and
    `except: forget[K]; raise` around it."""
    depth = point.depth
    loop, retry_handler, inner_cleanup, inner_reraise = Label(), Label(), Label(), Label()
    forget, forget_cleanup, give_up = Label(), Label(), Label()
    leaving = Region(forget, depth + 1, 0)
    asm.at(Region(retry_handler, depth + 1, 0))
    asm.label(loop)
    asm.raw(point.copy, point.copy_positions)
    if point.returns:  # keep[K] = the value
        call("keep", head_only=True)
        asm.op("STORE_SUBSCR")
    asm.at(leaving)
    asm.op("JUMP_FORWARD", decide)  # the retry succeeded: break
    inner_body = Region(inner_cleanup, depth + 2, 1)
    asm.at(inner_body)
    asm.label(retry_handler)
    asm.op("PUSH_EXC_INFO")
    _exception_then_retry(asm, call, exception, inner_reraise, give_up)
    asm.at(leaving)
    asm.op("POP_EXCEPT")
    asm.op("JUMP_BACKWARD", loop)  # continue
    asm.label(give_up)
    asm.op("POP_EXCEPT")
    asm.op("JUMP_FORWARD", decide)  # break
    asm.at(inner_body)
    asm.label(inner_reraise)
    asm.op("RERAISE", 0)
    asm.at(leaving)
    _cleanup(asm, inner_cleanup)
    asm.at(Region(forget_cleanup, depth + 2, 1))
    asm.label(forget)
    asm.op("PUSH_EXC_INFO")
    asm.op("POP_TOP")
    call("forget")
    asm.op("POP_TOP")
    asm.op("RAISE_VARARGS", 0)
    asm.at(outer_body)
    _cleanup(asm, forget_cleanup)


def _cleanup(asm, label) -> None:
    asm.label(label)
    asm.op("COPY", 3)
    asm.op("POP_EXCEPT")
    asm.op("RERAISE", 1)
