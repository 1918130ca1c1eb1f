"""The statement index of a module's AST (SPEC §4.2): every statement with where it sits — its
scope, whether it is top level, in a user `try`/`with` body, a docstring — and the statement
lists inside each statement kind. selection.py reads its rules of suitability over it.
"""

from __future__ import annotations

from ..preparation import syntax_tree as ast  # ast's functions over _ast's classes, without importing ast.py

__all__ = [
    "COMPOUND", "NEVER", "PROTECTING", "SCOPES", "SIMPLE", "Site", "bodies", "body_range",
    "index_statements",
]

SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Delete, ast.Return, ast.Assert,
          ast.Import, ast.ImportFrom)
COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.Match,
            ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
NEVER = (ast.Global, ast.Nonlocal, ast.Pass, ast.Break, ast.Continue)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
PROTECTING = (ast.Try, ast.With, ast.AsyncWith) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())


class Site:
    """Where a statement sits: its scope kind, whether it is top level, in a try/with body, a docstring."""

    __slots__ = ("node", "scope", "top_level", "protected", "docstring", "scope_body", "scope_node", "body", "position")

    def __init__(self, node, scope, top_level, protected, docstring, scope_body, scope_node, body, position):
        self.node, self.scope, self.top_level = node, scope, top_level
        self.protected, self.docstring, self.scope_body = protected, docstring, scope_body
        self.scope_node = scope_node  # the Module, FunctionDef or ClassDef whose body holds it
        self.body, self.position = body, position  # the statement list that holds it, and where


def bodies(node):
    """The statement lists directly inside `node`, each with whether it is a try/with body."""
    shape = _SHAPES.get(type(node))
    if shape is None:
        return list(_any_bodies(node))
    found = []
    for field, protected in shape:
        if field == "handlers" or field == "cases":
            found.extend((item.body, False) for item in getattr(node, field))
        else:
            found.append((getattr(node, field), protected))
    return found


def _any_bodies(node):
    """bodies() of a node that is not a statement (a Module, an except clause, a match case)."""
    if isinstance(node, PROTECTING):
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


# Each statement kind's statement lists in source order (field, whether a try/with body); an
# except clause or a match case holds its own body.
_SHAPES = {kind: () for kind in SIMPLE + NEVER + (ast.Raise,)}
_SHAPES.update({kind: (("body", False), ("orelse", False)) for kind in (ast.For, ast.AsyncFor, ast.While, ast.If)})
_SHAPES.update({kind: (("body", True),) for kind in (ast.With, ast.AsyncWith)})
_SHAPES.update({kind: (("body", True), ("handlers", False), ("orelse", False), ("finalbody", False))
                for kind in PROTECTING if kind not in (ast.With, ast.AsyncWith)})
_SHAPES.update({kind: (("body", False),) for kind in SCOPES})
_SHAPES[ast.Match] = (("cases", False),)


def index_statements(tree: ast.Module, ranges: list | None = None) -> list[Site]:
    """Every statement of the module with its Site, in source order; `ranges`, when given, gets
    the [start, end] line range of every user try and with body (unmerged: see protected_ranges)."""
    sites: list[Site] = []
    _walk(tree.body, "module", True, False, tree, sites, ranges)
    return sites


def _walk(body, scope, top_level, protected, scope_node, sites, ranges):
    """index_statements' walk of one statement list. A function of the module, not a closure: a
    closure that calls itself is a cycle, which would keep every Site, and the tree, until a
    collection."""
    for position, node in enumerate(body):
        docstring = (position == 0 and body is scope_node.body and isinstance(node, ast.Expr)
                     and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str))
        sites.append(Site(node, scope, top_level, protected, docstring, scope_node.body, scope_node, body, position))
        if ranges is not None and isinstance(node, PROTECTING) and node.body:
            ranges.append(body_range(node.body))
        if isinstance(node, SCOPES):
            kind = "class" if isinstance(node, ast.ClassDef) else (
                "async" if isinstance(node, ast.AsyncFunctionDef) else "function")
            # A class body runs now (inside any enclosing try); a function body runs later.
            inner_protected = protected if kind == "class" else False
            _walk(node.body, kind, False, inner_protected, node, sites, ranges)
            continue
        for inner, is_protected_body in bodies(node):
            _walk(inner, scope, False, protected or is_protected_body, scope_node, sites, ranges)


def body_range(body) -> list[int]:
    return [body[0].lineno, max(s.end_lineno or s.lineno for s in body)]
