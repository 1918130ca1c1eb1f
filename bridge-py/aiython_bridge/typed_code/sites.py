"""The contract sites of a module's AST (`type_contracts = "all"`, SPEC §6 for normal Python).

`add_contracts(tree)` rewrites, in place, every place where an annotation applies to a value:

- an annotated assignment with a value, in a module or function body (`x: T = v`,
  `self.x: T = v`, `d[k]: T = v`): `v` becomes `C.value(v, SITE)[0]`;
- an annotated parameter of a `def` or `async def`: `C.value(NAME, SITE)[0]` as a statement at the
  start of the body (after the docstring), one per parameter, placed on the parameter, so that
  a failing one's traceback shows its line; `*args: T` is held to `tuple[T, ...]`, `**kw: T`
  to `dict[str, T]`;
- the return value of a function with a return annotation that is not a generator (an `async
  def`'s is the awaited value): every `return v` becomes `return C.value(v, SITE)[0]`, a bare
  `return` returns `C.value(None, SITE)[0]`, and a body that can run off its end gets that
  return appended, placed on the return annotation (skipped when the annotation is `None`).

C is the placeholder constant code_constants.CONTRACTS (bound to runtime.TypeContracts when the
code is bound), SITE a constant tuple `(annotation text, path)`: the annotation as written
(ast.unparse; a string annotation stays a string, a forward reference resolved when the check
runs) and the path that names the value in a violation message (`x`, `self.total`,
`Account.deposit() argument amount`, `Account.deposit() return value`). `C.value(v, SITE)`
returns what the program's own frame subscripts with 0 in C: `(v,)`, or a mapping whose missing
key raises the violation from C, so its traceback ends on the program's line (runtime.py).

Not rewritten: class bodies (an annotation there declares the instances' attribute, and the
value beside it is a default or a field specifier such as dataclasses.field), annotations
without a value, lambdas (they have none), generators' returns and yields (the annotation
describes the generator object). Only statements are walked: an annotated assignment, a return
and a def are always statements.
"""

from __future__ import annotations

from ..preparation import code_constants
from ..preparation import syntax_tree as ast

__all__ = ["add_contracts"]

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_ENDS = (ast.Return, ast.Raise)


def add_contracts(tree) -> bool:
    """Rewrites `tree` (a Module) in place; True when it has at least one site."""
    rewriter = _Rewriter()
    rewriter.body(tree.body, None, "")
    return rewriter.sites > 0


class _Rewriter:
    def __init__(self):
        self.sites = 0
        self.seen = set()  # ids of statements rewritten: a checkpoint's retry is the very same node

    def body(self, statements, returns, prefix):
        """Each statement of a body; `returns` the enclosing function's return SITE (or None),
        `prefix` the qualified name of what encloses the body."""
        for stmt in statements:
            self.statement(stmt, returns, prefix)

    def statement(self, stmt, returns, prefix):
        if id(stmt) in self.seen:
            return
        self.seen.add(id(stmt))
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.function(stmt, prefix)
        elif isinstance(stmt, ast.ClassDef):
            self.class_body(stmt.body, f"{prefix}{stmt.name}.")
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                stmt.value = self.checked(stmt.value, stmt.annotation, _path_of(stmt.target), stmt.value)
        elif isinstance(stmt, ast.Return):
            if returns is not None:
                value = stmt.value or _at(ast.Constant(value=None), stmt)
                stmt.value = self.checked(value, None, None, stmt.value or stmt, returns)
        else:
            for inner in _bodies(stmt):
                self.body(inner, returns, prefix)

    def class_body(self, statements, prefix):
        """A class body: its functions and classes, not its annotated assignments."""
        pending = list(statements)
        while pending:
            stmt = pending.pop(0)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.function(stmt, prefix)
            elif isinstance(stmt, ast.ClassDef):
                self.class_body(stmt.body, f"{prefix}{stmt.name}.")
            else:
                for inner in _bodies(stmt):
                    pending.extend(inner)

    def function(self, node, prefix):
        label = f"{prefix}{node.name}()"
        checks = [self.parameter(arg, label, wrap) for arg, wrap in _parameters(node.args) if arg.annotation is not None]
        returns = None
        if node.returns is not None and not _is_generator(node):
            returns = (_text(node.returns), f"{label} return value")
        self.body(node.body, returns, f"{prefix}{node.name}.<locals>.")
        if returns is not None and returns[0] != "None" and _may_run_off(node.body):
            self.sites += 1
            node.body.append(_at(ast.Return(value=_call(_at(ast.Constant(value=None), node.returns), returns)), node.returns))
        start = 1 if _has_docstring(node) else 0
        node.body[start:start] = checks

    def parameter(self, arg, label, wrap):
        self.sites += 1
        text = wrap % _text(arg.annotation)
        name = _at(ast.Name(id=arg.arg, ctx=ast.Load()), arg)
        return _at(ast.Expr(value=_call(name, (text, f"{label} argument {arg.arg}"))), arg)

    def checked(self, value, annotation, path, where, site=None):
        self.sites += 1
        return _call(value, site or (_text(annotation), path), where)


def _call(value, site, where=None):
    """`C.value(value, SITE)[0]`, every node placed at `where` (default: the value)."""
    where = where or value
    runtime = _at(ast.Constant(value=code_constants.CONTRACTS), where)
    method = _at(ast.Attribute(value=runtime, attr="value", ctx=ast.Load()), where)
    inner = _at(ast.Call(func=method, args=[value, _at(ast.Constant(value=site), where)], keywords=[]), where)
    return _at(ast.Subscript(value=inner, slice=_at(ast.Constant(value=0), where), ctx=ast.Load()), where)


def _at(node, where):
    return ast.copy_location(node, where)


def _text(annotation) -> str:
    if isinstance(annotation, ast.Constant) and type(annotation.value) is str:
        return annotation.value  # a string annotation: its text is the annotation
    return ast.unparse(annotation)


def _path_of(target) -> str:
    if isinstance(target, ast.Name):
        return target.id
    return ast.unparse(target)


def _parameters(args):
    """(arg, how its annotation applies) of every parameter, in order."""
    found = [(arg, "%s") for arg in (*args.posonlyargs, *args.args)]
    if args.vararg is not None:
        found.append((args.vararg, "tuple[%s, ...]"))
    found += [(arg, "%s") for arg in args.kwonlyargs]
    if args.kwarg is not None:
        found.append((args.kwarg, "dict[str, %s]"))
    return found


def _bodies(stmt):
    """The statement lists inside a compound statement."""
    for field in ("body", "orelse", "finalbody"):
        inner = getattr(stmt, field, None)
        if type(inner) is list:
            yield inner
    for handler in getattr(stmt, "handlers", ()):
        yield handler.body
    for case in getattr(stmt, "cases", ()):
        yield case.body


def _is_generator(node) -> bool:
    """Whether `yield` occurs in the function's own scope (not in a nested one)."""
    pending = list(node.body)
    while pending:
        current = pending.pop()
        if isinstance(current, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(current, _SCOPES):
            pending.extend(current.decorator_list if not isinstance(current, ast.Lambda) else ())
            continue
        pending.extend(ast.iter_child_nodes(current))
    return False


def _may_run_off(body) -> bool:
    """False when the body's last statement is a return or a raise (a cheap, safe reading:
    True appends an unreachable return at worst)."""
    return not body or not isinstance(body[-1], _ENDS)


def _has_docstring(node) -> bool:
    first = node.body[0] if node.body else None
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and type(first.value.value) is str
