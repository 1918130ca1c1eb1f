"""Checkpoints added to a module's PLAIN 3.11 code object (SPEC §4.2), with the behaviour of
recovery/instrument.py's AST shape and none of its compile cost: `instrument_code` finds each
selected statement's instructions in its scope's code object, gives them an exception-table
entry to a handler appended after the code (handler.py) and leaves every original instruction
where it was.

Applied only where the layout is proven (statements.py), else None: the caller takes
the AST path for the whole module. The statement's scope is exactly one code object; its
instructions form runs of consecutive instructions whose positions lie inside the statement's
span; a run falls through to its end (a trailing jump, RERAISE or implicit `return None`
carrying the same position is the enclosing statement's, left after the end); its jumps stay
inside it and none from outside lands inside it; no exception-table entry partly overlaps it;
the stack depth at its start is known and the statement leaves the stack as it found it (an
instruction the compiler moved out of the span would not: the one it does move, the first
constant of a `%`-format it builds as a string, is given back to its statement by
statements.claim_hoisted, and the stack check proves it); its target's store instruction is
found; a `return EXPR` ends with the compiler's own unwinding (left in place: the handler jumps
to it with the value). A statement with no instructions (a constant expression, an annotation
in a function), a `return` of nothing or of a constant, cannot fail and gets no handler.
"""

from __future__ import annotations

from ...preparation import syntax_tree as ast  # node classes only: ast.py is not imported

from ...preparation.code_constants import KEY_OFFSET
from . import code as bc
from . import statements
from .assembly import Assembler, assemble, region_entries
from .depths import depths, peak
from .handler import Constants, write_handler
from .template import Template

__all__ = ["handler_code", "instrument_code"]

_CODE = type(compile("", "", "exec"))


def instrument_code(code, selected, placeholders):
    """`code` (the module's plain code) with the handlers of `selected` ([(Site, info)] in index
    order); None when any of them is unsuitable. `placeholders`: ({call name: placeholder}, Exception,
    RecursionError) placeholder constants."""
    by_scope: dict = {}
    for index, (site, info) in enumerate(selected):
        by_scope.setdefault(id(site.scope_node), (site.scope_node, []))[1].append((index, site, info))
    codes: dict = {}
    _index_codes(code, codes)
    wanted: dict = {}
    for scope_node, points in by_scope.values():
        if isinstance(scope_node, ast.Module):  # statements nested in the module's own if, for, try…
            found = [code]
        else:
            first = min([scope_node.lineno] + [d.lineno for d in scope_node.decorator_list])
            found = codes.get((scope_node.name, first))
        if found is None or len(found) != 1:
            return None
        wanted[id(found[0])] = points
    try:
        result = _rewrite(code, wanted, placeholders)
    except statements.Unsuitable:
        return None
    return result


def _index_codes(code, codes) -> None:
    for const in code.co_consts:
        if type(const) is _CODE:
            codes.setdefault((const.co_name, const.co_firstlineno), []).append(const)
            _index_codes(const, codes)


def _rewrite(code, wanted, placeholders):
    consts, changed = list(code.co_consts), False
    for position, const in enumerate(consts):
        if type(const) is _CODE:
            new = _rewrite(const, wanted, placeholders)
            if new is not const:
                consts[position], changed = new, True
    points = wanted.get(id(code))
    if points:
        return _instrument(code, consts, points, placeholders)
    return code.replace(co_consts=tuple(consts)) if changed else code


def _instrument(code, consts, points, placeholders):
    found, by_start, targets = bc.instructions(code.co_code)
    positions = list(code.co_positions())
    entries = bc.exception_entries(code.co_exceptiontable)
    depth_at = depths(found, by_start, entries)
    if depth_at is None:
        raise statements.Unsuitable
    runs = statements.runs_by_statement(found, positions, points)
    for entry in entries:
        targets.setdefault(entry[2], []).append(-1)
    statements.claim_hoisted(found, runs, points, targets)
    flow = statements.Flow(found, targets, entries)
    checkpoints, stack = [], code.co_stacksize
    for (index, site, info), members in zip(points, runs):
        node = site.node
        if not members:
            if not statements.compiles_to_nothing(node):
                raise statements.Unsuitable
            continue
        for run in statements.split_runs(members):
            point = statements.checkpoint(code, found, positions, run, index, node, info, depth_at, targets, entries,
                                             flow)
            if point is not None:
                checkpoints.append(point)
                stack = max(stack, point.depth + 5, peak(found, run, depth_at) + (4 if point.returns else 1))
    if not checkpoints:
        return code.replace(co_consts=tuple(consts))
    return _apply(code, consts, entries, positions, checkpoints, stack, placeholders)


def _apply(code, consts, entries, positions, checkpoints, stack, placeholders):
    table = Constants(consts, code.co_names)
    template = Template(table, placeholders)
    base = len(code.co_code) // 2
    appended, segments, handlers, protected = bytearray(), [], [], []
    for point in checkpoints:
        start = base + len(appended) // 2
        written = handler_code(point, table, template, placeholders, start)
        appended += written[0]
        segments += written[1]
        handlers.append(written[2])  # encoded; in order, after the code's own
        protected.append([point.start, point.end, start, point.depth, 0])
    table_bytes = bc.encode_exception_entries(sorted(_split(entries, checkpoints) + protected)) + b"".join(handlers)
    line = next((p[0] for p in reversed(positions) if p[0] is not None), code.co_firstlineno)
    locations, _ = bc.location_entries(segments, line)
    return code.replace(co_code=code.co_code + bytes(appended), co_consts=tuple(table.consts),
                        co_names=tuple(table.names), co_exceptiontable=table_bytes,
                        co_linetable=code.co_linetable + locations, co_stacksize=stack)


def handler_code(point, table, template, placeholders, base, *, assembler=False):
    """(bytes, position segments, encoded entries) of one handler at unit `base`: from the template,
    or the Assembler where the template cannot write it (or `assembler`: tests compare them)."""
    key = table.const(point.index + KEY_OFFSET)
    written = None if assembler or not template.usable else template.write(point, key, base)
    if written is None:
        asm = Assembler(base, point.position)
        write_handler(asm, point, table, placeholders)
        data, where, regions = assemble(asm)
        written = data, [where], bc.encode_exception_entries(region_entries(regions, base, point.outer))
    data, segments, entries = written
    return data, _unplaced_cleanups(data, segments), entries


_CLEANUP = bytes((bc.OP["COPY"], 3, bc.OP["POP_EXCEPT"], 0, bc.OP["RERAISE"], 1))
_NOWHERE = (None, None, None, None)


def _unplaced_cleanups(data: bytes, segments: list) -> list:
    """`segments` with each handler cleanup (`COPY 3; POP_EXCEPT; RERAISE 1`, never in the
    statement's own units: a simple statement has no handler) given no position, as the compiler gives its own: laid out before the `raise` that reaches
    it, a cleanup with a line is a backward jump to a tracer, which reports a line event python3
    has no reason to."""
    per_unit = [p for segment in segments for p in (segment if type(segment) is list else [segment[1]] * segment[0])]
    first = len(per_unit) - len(data) // 2  # 0: the segments cover exactly the handler's units
    at = data.find(_CLEANUP, 0)
    while at != -1:
        if at % 2 == 0:
            for unit in range(at // 2, at // 2 + 3):
                per_unit[first + unit] = _NOWHERE
        at = data.find(_CLEANUP, at + 2)
    return [per_unit]


def _split(entries, checkpoints):
    """The code's own entries, each without the ranges of the checkpoints it covers."""
    inside: dict = {}
    for point in checkpoints:
        if point.outer is not None:
            inside.setdefault(id(point.outer), []).append((point.start, point.end))
    result = []
    for entry in entries:
        start = entry[0]
        for a, b in sorted(inside.get(id(entry), ())):
            if a > start:
                result.append([start, a] + entry[2:])
            start = b
        if start < entry[1]:
            result.append([start, entry[1]] + entry[2:])
    return result
