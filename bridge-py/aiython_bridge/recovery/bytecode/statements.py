"""Where a checkpoint statement's instructions are in its 3.11 code object, and the proof that
instrument.py may give them a handler (see its docstring for the rules): the runs of
instructions inside each statement's span, each run checked and turned into a
handler.Checkpoint; Unsuitable when anything cannot be proven.
"""

from __future__ import annotations

from ...preparation import syntax_tree as ast  # node classes only: ast.py is not imported
import bisect

from . import code as bc
from .code import ARG, END, OPCODE, START, TARGET, UNIT
from .handler import Checkpoint

__all__ = [
    "Flow", "LOAD_CONST", "RETURN_VALUE", "SWAP", "Unsuitable", "checkpoint", "claim_hoisted",
    "compiles_to_nothing", "runs_by_statement", "split_runs",
]

_STORES = frozenset(bc.OP[name] for name in ("STORE_FAST", "STORE_DEREF", "STORE_NAME", "STORE_GLOBAL"))
_EPILOGUE = frozenset(bc.OP[name] for name in ("POP_EXCEPT", "RERAISE", "RETURN_VALUE"))
_JUMPS_AFTER = frozenset(bc.OP[name] for name in ("JUMP_FORWARD", "JUMP_BACKWARD"))
_UNWIND = frozenset(bc.OP[name] for name in ("SWAP", "POP_TOP", "POP_EXCEPT", "LOAD_CONST", "STORE_FAST", "DELETE_FAST",
                                             "STORE_NAME", "DELETE_NAME", "STORE_DEREF", "DELETE_DEREF"))
SWAP = bc.OP["SWAP"]
# What a `return` of nothing or of a constant compiles to (with its unwinding), none of which raises
# (the name an `except … as` clause bound is set to None, then deleted).
_CANNOT_FAIL = frozenset(bc.OP[name] for name in ("POP_TOP", "SWAP", "LOAD_CONST", "RETURN_VALUE", "POP_EXCEPT", "NOP",
                                                  "STORE_FAST", "DELETE_FAST"))
# Instructions no simple statement compiles to, or ends with: the handler machinery around an
# except or finally body, a loop's back edge (they may carry no position).
_NOT_STATEMENTS = frozenset(bc.OP[name] for name in ("PUSH_EXC_INFO", "POP_EXCEPT", "RERAISE", "NOP", "JUMP_FORWARD",
                                                     "JUMP_BACKWARD"))
RETURN_VALUE, LOAD_CONST = bc.OP["RETURN_VALUE"], bc.OP["LOAD_CONST"]


class Unsuitable(Exception):
    """The layout is not one this path can prove: the AST path instruments the module."""


def runs_by_statement(found, positions, points):
    """The indexes of the instructions inside each statement's span, per statement. A position
    (line, column) is compared as the one integer line << 32 | column."""
    spans = sorted((site.node.lineno << 32 | site.node.col_offset, site.node.end_lineno << 32 | site.node.end_col_offset,
                    slot) for slot, (_, site, _) in enumerate(points))
    starts = [span[0] for span in spans]
    ends = [span[1] for span in spans]
    slots = [span[2] for span in spans]
    members = [[] for _ in points]
    after, bounds = bisect.bisect_right, [-1] + starts + [1 << 64]
    low, high, where = 0, -1, -1  # the last span found: keys in [low, high) find it again
    for number, ins in enumerate(found):
        line, end_line, column, end_column = positions[ins[UNIT]]
        if line is None or column is None:
            continue
        key = line << 32 | column
        if not low <= key < high:
            where = after(starts, key) - 1
            low, high = bounds[where + 1], bounds[where + 2]
        if where >= 0 and end_line << 32 | end_column <= ends[where]:
            members[slots[where]].append(number)
    return members


def claim_hoisted(found, members, points, targets) -> None:
    """Give each statement the LOAD_CONST just before its first instruction when it carries no
    position or the position of the statement before (which is not a `return`): the compiler
    loads the first constant of a `'…%s…' % (…)` it makes a BUILD_STRING before it sets the
    statement's position. Not when the statement's first instruction is a jump target; the
    stack checks of `checkpoint` then prove both statements' runs."""
    owner = {number: slot for slot, numbers in enumerate(members) for number in numbers}
    for slot, numbers in enumerate(members):
        before = numbers[0] - 1 if numbers else -1
        if before < 0 or found[before][OPCODE] != LOAD_CONST or found[numbers[0]][START] in targets:
            continue
        other = owner.get(before)
        if other is not None:
            if isinstance(points[other][1].node, ast.Return):
                continue
            members[other].remove(before)
        numbers.insert(0, before)
        owner[before] = slot


def split_runs(members):
    run = [members[0]]
    for number in members[1:]:
        if number != run[-1] + 1:
            yield run
            run = []
        run.append(number)
    yield run


def compiles_to_nothing(node) -> bool:
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant)
    return isinstance(node, (ast.AnnAssign, ast.Assert)) and (isinstance(node, ast.Assert) or node.value is None)


class Flow:
    """A code object's jumps for `checkpoint`: the numbers of its jump instructions, its jump and
    handler targets, and the starts of its exception-table entries (None unless they come
    sorted and disjoint, as 3.11 writes them), all sorted, so a run's are found by bisection."""

    __slots__ = ("jumps", "units", "entry_starts")

    def __init__(self, found, targets, entries):
        self.jumps = [number for number, ins in enumerate(found) if ins[TARGET] is not None]
        self.units = sorted(targets)
        disjoint = all(entry[1] <= following[0] for entry, following in zip(entries, entries[1:]))
        self.entry_starts = [entry[0] for entry in entries] if disjoint else None


def checkpoint(code, found, positions, run, index, node, info, depth_at, targets, entries, flow):
    is_return = isinstance(node, ast.Return)
    _check_neighbours(found, positions, run, flow)
    if not is_return:
        _cut_epilogue(code, found, run)
        if not run or found[run[-1]][OPCODE] in bc.TERMINAL or found[run[-1]][OPCODE] in bc.UNCONDITIONAL:
            raise Unsuitable
    elif all(found[number][OPCODE] in _CANNOT_FAIL for number in run):
        return None  # a bare `return`, a constant's: nothing in it can fail
    elif node.value is None:
        raise Unsuitable
    a = found[run[0]][START]
    depth = depth_at.get(a)
    if depth is None:
        raise Unsuitable
    point = Checkpoint(index, a, None, depth, (node.lineno, node.end_lineno, node.col_offset, node.end_col_offset))
    if is_return:
        run = _return_value(found, run, depth, depth_at, targets)
        point.returns = True
    b = point.end = found[run[-1]][END]
    if not is_return and depth_at.get(b) != depth:  # a simple statement leaves the stack as it found it:
        raise Unsuitable                            # else an instruction of it lies outside its span
    jumps, units = flow.jumps, flow.units
    for number in jumps[bisect.bisect_left(jumps, run[0]):bisect.bisect_right(jumps, run[-1])]:
        if not a <= found[number][TARGET] <= b:
            raise Unsuitable
    # entered only at its start: no jump or handler from outside to a later unit (jumps land on an
    # instruction's first unit, or the one after its EXTENDED_ARG prefixes: the run's own)
    for unit in units[bisect.bisect_right(units, a):bisect.bisect_left(units, b)]:
        for source in targets[unit]:
            if not a <= source < b:
                raise Unsuitable
    starts = flow.entry_starts  # sorted, disjoint: the last entry starting at or before a, those up to b
    if starts is not None:
        entries = entries[max(0, bisect.bisect_right(starts, a) - 1):bisect.bisect_left(starts, b)]
    for entry in entries:
        if entry[1] <= a or entry[0] >= b:
            continue
        if entry[0] <= a and b <= entry[1] and point.outer is None:
            point.outer = entry
            continue
        raise Unsuitable
    point.copy, point.copy_positions = code.co_code[2 * a:2 * b], positions[a:b]
    if info.get("target"):
        point.store = _store(code, found, run, info["target"])
    return point


def _check_neighbours(found, positions, run, flow) -> None:
    """An instruction without a position next to the run may be the statement's own: refused
    when control passes between it and the run. Not a constant: it cannot fail, and the stack
    checks refuse a run that leaves out one of its own."""
    first, last = found[run[0]], found[run[-1]]
    before = found[run[0] - 1] if run[0] else None
    after = found[run[-1] + 1] if run[-1] + 1 < len(found) else None
    for neighbour in (before, after):
        if neighbour is None or neighbour[OPCODE] in _NOT_STATEMENTS or neighbour[OPCODE] == LOAD_CONST:
            continue
        line, _, column, _ = positions[neighbour[UNIT]]
        if line is not None and column is not None:
            continue
        if neighbour is before:
            reached = _falls_through(before)
        else:
            jumps = flow.jumps
            reached = _falls_through(last) or any(
                found[number][TARGET] == last[END]
                for number in jumps[bisect.bisect_left(jumps, run[0]):bisect.bisect_right(jumps, run[-1])])
        if reached or neighbour[TARGET] == first[START]:
            raise Unsuitable


def _falls_through(ins) -> bool:
    return ins[OPCODE] not in bc.TERMINAL and ins[OPCODE] not in bc.UNCONDITIONAL


def _cut_epilogue(code, found, run) -> None:
    """Drop from a simple statement's run what follows it with its position: from the first
    POP_EXCEPT, RERAISE or RETURN_VALUE (an except body's end, a finally's, the implicit
    `return None`), none of which a simple statement other than `return` compiles to; then
    trailing unconditional jumps (a loop's back edge, a jump over an `else`) and constants
    (which cannot fail: the stack check at the run's end proves they are not its own)."""
    for cut, number in enumerate(run):
        op = found[number][OPCODE]
        if op in _EPILOGUE:
            if op == RETURN_VALUE and cut and found[run[cut - 1]][OPCODE] == LOAD_CONST:
                cut -= 1  # the implicit `return None`, or the value of a `return CONST` a finally body ran before
            elif op == RETURN_VALUE and cut >= 3 and _class_cell(code, [found[n] for n in run[cut - 3:cut]]):
                cut -= 3  # a class body's implicit return of its __classcell__
            del run[cut:]
            break
    while run and (found[run[-1]][OPCODE] in _JUMPS_AFTER or found[run[-1]][OPCODE] == LOAD_CONST):
        del run[-1]  # a LOAD_CONST: the next statement's first constant, hoisted (claim_hoisted)


def _class_cell(code, three) -> bool:
    return [ins[OPCODE] for ins in three] == _CLASS_CELL and three[1][ARG] == 1 and code.co_names[three[2][ARG]] == "__classcell__"


_CLASS_CELL = [bc.OP["LOAD_CLOSURE"], bc.OP["COPY"], bc.OP["STORE_NAME"]]


def _return_value(found, run, depth, depth_at, targets):
    """The run of a `return EXPR` up to where EXPR's value is computed: before the compiler's
    unwinding (`SWAP 2` then POP_TOP of `for` iterators, POP_EXCEPT and the clearing of an
    `except … as` name; then a `finally` body, and RETURN_VALUE), which nothing jumps into."""
    end = len(run) - 1 if found[run[-1]][OPCODE] == RETURN_VALUE else len(run)
    cut = end
    if depth:
        while cut > 1 and found[run[cut - 1]][OPCODE] in _UNWIND:
            cut -= 1
        while cut < end and not (found[run[cut]][OPCODE] == SWAP and found[run[cut]][ARG] == 2
                                 and depth_at.get(found[run[cut]][START]) == depth + 1):
            cut += 1
    if cut == 0 or cut == len(run) or depth_at.get(found[run[cut]][START]) != depth + 1:
        raise Unsuitable
    if any(found[number][START] in targets for number in run[cut + 1:]):
        raise Unsuitable
    return run[:cut]


def _store(code, found, run, target):
    stores = set()
    for number in run:
        ins = found[number]
        if ins[OPCODE] in _STORES:
            name = code._varname_from_oparg(ins[ARG]) if ins[OPCODE] in (bc.OP["STORE_FAST"], bc.OP["STORE_DEREF"]) \
                else code.co_names[ins[ARG]]
            if name == target or (target.startswith("__") and name.startswith("_") and name.endswith(target)):
                stores.add((bc.NAME[ins[OPCODE]], ins[ARG]))
    if len(stores) != 1:
        raise Unsuitable
    return stores.pop()
