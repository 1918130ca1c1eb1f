"""Checkpoint instrumentation (SPEC §4.2): the plan's checkpoint table applied to a module's AST.

Part of recovery/: checkpoints exist only for recovery, and the handlers it generates call
checkpoints.CheckpointRuntime. The import hook also borrows its name helpers (`identifiers`,
`fresh_name`) for the builtins name of an imported module's block Runtime.

Over 250 lines: the transform needs the statement index (spans → nodes, scopes, try/with
bodies), the generated handler and the reference selection used by tests and bench/overhead.

Each checkpoint statement STMT becomes, with the ORIGINAL node kept in place (so line numbers,
columns and the carets of CPython's tracebacks are unchanged):

    try:
        STMT
    except R.Exception:                       # only Exception; BaseExceptions pass untouched
        try:
            while R.recover(K):                # `await R.arecover(K)` in async def bodies
                try:
                    STMT                       # a copy, same positions: the retry
                except R.Exception:
                    R.failed(K)                # decided by the next R.recover(K) (at most 2 in all)
                else:
                    R.succeeded(K)
            if R.raising(K):
                raise                          # bare: the ORIGINAL exception, traceback untouched
            if R.binding(K):                   # single-name assignments only
                NAME = R.value(K)              # the frame's own store: local, cell, global, class
            return                             # `return` statements only: completed = returned
        finally:
            R.forget(K)

and a statement that can be neither retried nor bound (compound statements, or no retry and no
single-name target) gets the short form `except R.Exception: if R.settle(K): raise`.

Why this shape:
- Happy path: a bare `try` costs nothing in 3.11+ (exception tables; 3.12+ even moves the
  handler out of line; 3.11 pays one jump over it). No counter, call, loop or name binding runs
  unless STMT raises, and no name is added to the frame: an extra local slot alone measurably
  slows small, call-heavy functions on 3.12+.
- The handler binds no name at all: the runtime keeps each failure's state keyed by the original
  exception (`sys.exception()` in the handler, its `__context__` in the retry's handler), the
  frame and K, until `forget` (the `finally` runs however the handler is left). `R` is a
  builtins name chosen not to clash with any identifier of the module; `R.Exception` keeps the
  handler right when the program rebinds `Exception`.
- The retry runs inside the handler, in the same scope, so `return`, `yield`, `await`,
  `global`/`nonlocal`, `super()`'s `__class__` cell and name mangling behave as in STMT. The
  retry copy is a simple statement, which cannot contain `break`/`continue` for the generated
  loop to capture. While a retry runs, the original exception is the one being handled.
- Binding is done by generated code rather than by writing frame locals, so it is right in
  functions, closures, class bodies and modules on every Python version.
- Compound checkpoints (top-level loops, `if`, `with`, `try`, `match`, definitions) can only
  complete (continue after them) or propagate.

Never instrumented even if a table names them (defence against a bad table): docstrings,
`from __future__` imports, `global`/`nonlocal`/`pass`/`break`/`continue`, statements inside a
user `try` or `with` body, and top-level statements of imported (non-entry) modules.
"""

from __future__ import annotations

import ast
import copy
import re

SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Delete, ast.Return, ast.Assert,
          ast.Import, ast.ImportFrom)
COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.Match,
            ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
NEVER = (ast.Global, ast.Nonlocal, ast.Pass, ast.Break, ast.Continue)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_PROTECTING = (ast.Try, ast.With, ast.AsyncWith) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

RECOVER_NAME = "_aiython_recover"


class Site:
    """Where a statement sits: its scope kind, whether it is top level, in a try/with body, a docstring."""

    __slots__ = ("node", "scope", "top_level", "protected", "docstring", "scope_body")

    def __init__(self, node, scope, top_level, protected, docstring, scope_body):
        self.node, self.scope, self.top_level = node, scope, top_level
        self.protected, self.docstring, self.scope_body = protected, docstring, scope_body


def _bodies(node):
    """The statement lists directly inside `node`, each with whether it is a try/with body."""
    if isinstance(node, _PROTECTING):
        yield node.body, True
    elif hasattr(node, "body") and isinstance(node.body, list):
        yield node.body, False
    for handler in getattr(node, "handlers", ()):
        yield handler.body, False
    for field in ("orelse", "finalbody"):
        value = getattr(node, field, None)
        if isinstance(value, list):
            yield value, False
    for case in getattr(node, "cases", ()):
        yield case.body, False


def index_statements(tree: ast.Module) -> list[Site]:
    """Every statement of the module with its Site, in source order."""
    sites: list[Site] = []

    def walk(body, scope, top_level, protected, scope_body):
        for position, node in enumerate(body):
            docstring = (position == 0 and body is scope_body and isinstance(node, ast.Expr)
                         and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str))
            sites.append(Site(node, scope, top_level, protected, docstring, scope_body))
            if isinstance(node, _SCOPES):
                kind = "class" if isinstance(node, ast.ClassDef) else (
                    "async" if isinstance(node, ast.AsyncFunctionDef) else "function")
                # A class body runs now (inside any enclosing try); a function body runs later.
                inner_protected = protected if kind == "class" else False
                walk(node.body, kind, False, inner_protected, node.body)
                continue
            for inner, is_protected_body in _bodies(node):
                walk(inner, scope, False, protected or is_protected_body, scope_body)

    walk(tree.body, "module", True, False, tree.body)
    return sites


def protected_ranges(tree: ast.Module) -> list[list[int]]:
    """[start, end] line ranges of user try and with bodies, merged and sorted."""
    ranges = []
    for node in ast.walk(tree):
        if isinstance(node, _PROTECTING) and node.body:
            ranges.append([node.body[0].lineno, max(s.end_lineno or s.lineno for s in node.body)])
    ranges.sort()
    merged: list[list[int]] = []
    for start, end in ranges:
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


class Columns:
    """Converts the AST's UTF-8 byte columns to the plan's code-point columns."""

    def __init__(self, source: str):
        self.lines = _LINE_BREAK.split(source)

    def char(self, lineno: int, byte_col: int) -> int:
        if not 0 < lineno <= len(self.lines):
            return byte_col
        line = self.lines[lineno - 1]
        if line.isascii():
            return byte_col
        return len(line.encode("utf-8")[:byte_col].decode("utf-8", "replace"))

    def segment(self, node) -> str:
        first, last = node.lineno, node.end_lineno or node.lineno
        if first == last:
            line = self.lines[first - 1].encode("utf-8")
            return line[node.col_offset:node.end_col_offset].decode("utf-8", "replace")
        parts = [self.lines[first - 1].encode("utf-8")[node.col_offset:].decode("utf-8", "replace")]
        parts += self.lines[first:last - 1]
        parts.append(self.lines[last - 1].encode("utf-8")[:node.end_col_offset].decode("utf-8", "replace"))
        return "\n".join(parts)

    def span(self, node) -> dict:
        end_line = node.end_lineno or node.lineno
        return {"line": node.lineno, "column": self.char(node.lineno, node.col_offset),
                "end_line": end_line, "end_column": self.char(end_line, node.end_col_offset or 0)}


def single_target(node) -> str | None:
    """The one name a statement assigns (`x = …`, `x: T = …`, `x += …`), else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


def _annotation_of(name: str, site: Site) -> str | None:
    """The annotation text of `name` in the statement's own scope (its own, else the first one)."""
    if isinstance(site.node, ast.AnnAssign):
        return ast.unparse(site.node.annotation)
    pending = list(site.scope_body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return ast.unparse(node.annotation)
        if not isinstance(node, _SCOPES):
            for inner, _ in _bodies(node):
                pending.extend(inner)
    return None


def suitable(site: Site, *, entry: bool) -> bool:
    node = site.node
    if site.docstring or site.protected or isinstance(node, NEVER):
        return False
    if isinstance(node, ast.ImportFrom) and node.module == "__future__":
        return False
    if site.top_level:
        return entry
    return isinstance(node, SIMPLE)


def select_checkpoints(tree: ast.Module, source: str, *, entry: bool, name: str = "program",
                       runtime_name: str | None = None) -> list[dict]:
    """A checkpoint table by SPEC §4.2's rules, shaped like the frontend's CheckpointInfo.

    The frontend owns the real selection; this one drives tests and bench/overhead.
    """
    columns = Columns(source)
    table = []
    for site in index_statements(tree):
        node = site.node
        if not suitable(site, entry=entry) or _is_runtime_call(node, runtime_name):
            continue
        compound = not isinstance(node, SIMPLE)
        target = None if compound else single_target(node)
        table.append({
            "id": f"{name}:c{len(table) + 1}", "span": columns.span(node), "statement": columns.segment(node),
            "target": target, "annotation": _annotation_of(target, site) if target else None,
            "retry_allowed": not compound, "compound": compound,
        })
    return table


def _is_runtime_call(node, runtime_name) -> bool:
    if runtime_name is None:
        return False
    return any(isinstance(n, ast.Name) and n.id == runtime_name for n in ast.walk(node))


def identifiers(tree: ast.AST) -> set[str]:
    """Every identifier-like string in the tree (names, attributes, arguments, aliases…)."""
    found = set()
    for node in ast.walk(tree):
        for _, value in ast.iter_fields(node):
            if isinstance(value, str) and value.isidentifier():
                found.add(value)
            elif isinstance(value, list):
                found.update(v for v in value if isinstance(v, str) and v.isidentifier())
        if isinstance(node, ast.alias):
            found.update(part for part in node.name.split(".") if part)
    return found


def fresh_name(base: str, taken: set[str]) -> str:
    """`base`, or `base` with a number before any trailing `__`, not in `taken`."""
    if base not in taken:
        return base
    stem, tail = (base[:-2], "__") if base.endswith("__") else (base, "")
    number = 1
    while f"{stem}{number}{tail}" in taken:
        number += 1
    return f"{stem}{number}{tail}"


class Instrumented:
    """The transformed tree and the checkpoints it calls, in index order from `first_index`."""

    def __init__(self, tree, checkpoints, recover_name, skipped):
        self.tree = tree
        self.checkpoints = checkpoints
        self.recover_name = recover_name
        self.skipped = skipped  # ids of table entries that match no suitable statement


def instrument(tree: ast.Module, table: list[dict], *, source: str, entry: bool, first_index: int = 0,
               recover_name: str = RECOVER_NAME) -> Instrumented:
    """Wrap the statements the table names (see the module docstring); `tree` is changed in place."""
    columns = Columns(source)
    sites = index_statements(tree)
    by_start: dict[tuple[int, int], Site] = {}
    by_line: dict[int, list[Site]] = {}
    for site in sites:
        key = (site.node.lineno, columns.char(site.node.lineno, site.node.col_offset))
        by_start.setdefault(key, site)
        by_line.setdefault(site.node.lineno, []).append(site)
    r_name = fresh_name(recover_name, identifiers(tree))
    chosen: dict[int, tuple[int, dict, Site]] = {}  # id(statement) -> (index, info, site)
    resolved, skipped = [], []
    for entry_info in table:
        span = entry_info.get("span") or {}
        site = by_start.get((span.get("line"), span.get("column")))
        if site is None and len(by_line.get(span.get("line"), ())) == 1:
            site = by_line[span["line"]][0]
        if site is None or id(site.node) in chosen or not suitable(site, entry=entry):
            skipped.append(entry_info.get("id"))
            continue
        node = site.node
        compound = not isinstance(node, SIMPLE)
        target = None if compound else single_target(node)
        info = {
            "id": entry_info.get("id"), "span": columns.span(node),
            "statement": entry_info.get("statement") or columns.segment(node),
            "target": target,
            "annotation": (entry_info.get("annotation") if entry_info.get("target") == target else None)
            or (_annotation_of(target, site) if target else None),
            "retry_allowed": bool(entry_info.get("retry_allowed", True)) and not compound,
            "compound": compound, "is_return": isinstance(node, ast.Return),
        }
        chosen[id(node)] = (first_index + len(resolved), info, site)
        resolved.append(info)
    if chosen:
        _rewrite_bodies(tree, chosen, r_name)
        ast.fix_missing_locations(tree)
    return Instrumented(tree, resolved, r_name, skipped)


def _rewrite_bodies(tree, chosen, r_name):
    pending = [tree]
    while pending:
        node = pending.pop()
        for body, _ in _bodies(node):
            for position, child in enumerate(body):
                pending.append(child)
                hit = chosen.get(id(child))
                if hit is not None:
                    index, info, site = hit
                    body[position] = _wrap(child, index, info, site.scope == "async", r_name)


def _wrap(stmt, index, info, is_async, r_name):
    where = {"lineno": stmt.lineno, "col_offset": stmt.col_offset,
             "end_lineno": stmt.end_lineno, "end_col_offset": stmt.end_col_offset}

    def call(method, awaited=False):
        value = ast.Call(func=ast.Attribute(value=ast.Name(id=r_name, ctx=ast.Load(), **where), attr=method,
                                            ctx=ast.Load(), **where),
                         args=[ast.Constant(value=index, **where)], keywords=[], **where)
        return ast.Await(value=value, **where) if awaited else value

    def handler(body):
        exception = ast.Attribute(value=ast.Name(id=r_name, ctx=ast.Load(), **where), attr="Exception",
                                  ctx=ast.Load(), **where)
        return ast.ExceptHandler(type=exception, name=None, body=body, **where)

    def statement(expression):
        return ast.Expr(value=expression, **where)

    def raise_if(condition):
        return ast.If(test=condition, body=[ast.Raise(exc=None, cause=None, **where)], orelse=[], **where)

    ending = [ast.Return(value=None, **where)] if info["is_return"] else []
    if not info["retry_allowed"] and not info["target"]:
        steps = [raise_if(call("asettle" if is_async else "settle", is_async)), *ending]
    else:
        consult = call("arecover" if is_async else "recover", is_async)
        if info["retry_allowed"]:
            retry = ast.Try(body=[copy.deepcopy(stmt)], handlers=[handler([statement(call("failed"))])],
                            orelse=[statement(call("succeeded"))], finalbody=[], **where)
            decide = ast.While(test=consult, body=[retry], orelse=[], **where)
        else:
            decide = statement(consult)
        body = [decide, raise_if(call("raising"))]
        if info["target"]:
            bind = ast.Assign(targets=[ast.Name(id=info["target"], ctx=ast.Store(), **where)], value=call("value"),
                              **where)
            body.append(ast.If(test=call("binding"), body=[bind], orelse=[], **where))
        steps = [ast.Try(body=body + ending, handlers=[], orelse=[], finalbody=[statement(call("forget"))], **where)]
    return ast.Try(body=[stmt], handlers=[handler(steps)], orelse=[], finalbody=[], **where)


def compile_checkpointed(text: str, filename: str, plan: dict, runtime, *, entry: bool, tree=None):
    """Code for `text` (the plan's rewritten source or the original; `tree` its AST if parsed
    already) with the plan's checkpoints, registered with `runtime` (checkpoints.CheckpointRuntime),
    whose builtins name the generated handlers call."""
    if tree is None:
        tree = ast.parse(text, filename)
    ranges = protected_ranges(tree)  # before the transform adds its own try statements
    with runtime.lock:
        result = instrument(tree, plan.get("checkpoints") or [], source=text, entry=entry, first_index=runtime.size)
        runtime.register(filename, result.checkpoints, ranges, result.recover_name)
    return compile(result.tree, filename, "exec", dont_inherit=True)
