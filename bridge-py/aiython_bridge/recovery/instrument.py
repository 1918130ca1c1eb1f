"""Checkpoint instrumentation (SPEC §4.2): the checkpoints selection.py selects, wrapped in the
same walk that selects them (`instrument_selected`: preparation/prepare.py, program_code.py), on a
source CPython parses as it is and on a plan's rewritten program alike.

Each checkpoint statement STMT becomes, with the ORIGINAL node kept in place (so line numbers,
columns and the carets of CPython's tracebacks are unchanged):

    try:
        STMT
    except RecursionError:                 # never consulted: no stack left to run anything on
        raise
    except Exception:                      # only Exception; BaseExceptions pass untouched
        if R.retry(K):                     # decide the failure; True: run the statement again
            try:
                while True:
                    try:
                        STMT               # a copy, same positions: the retry
                    except Exception:
                        if R.retry(K):     # decide the retry's failure (at most 2 consultations)
                            continue
                    break
            except:                        # a BaseException leaves the retry: drop the state
                R.forget(K)
                raise
        if R.raising(K):
            raise                          # bare: the ORIGINAL exception, traceback untouched
        if R.binding(K):                   # single-name assignments only
            NAME = R.value(K)              # the frame's own store: local, cell, global, class
        return R.returned(K)               # `return` statements only: completed = returned

The same calls in `async def` bodies: a consultation there blocks the event loop, so the
program's tasks run in exactly the order they would under python3 whatever the model decides
(a task's failure is decided before any other task takes a step). A retried `return EXPR` runs as `keep[K] = EXPR`,
so that the value is returned once the state is dropped. A statement that can be neither
retried nor bound (compound statements, or no retry and no single-name target) gets
`if R.settle(K): raise`.

R.NAME(K), Exception and RecursionError are not names: the tree holds placeholder constants
that code_constants.bind replaces in the compiled code with this file's handler calls
(checkpoints.FileCheckpoints.calls, each subscripted: `CALLS[NAME][K + KEY_OFFSET]`, so that
co_names, which `inspect` reads, holds only the program's names) and the classes themselves. So the handler calls nothing through
builtins or globals (nothing is added to them, a rebound `Exception` does not matter, and it
still works while the interpreter finalizes, when builtins have been reset), and the compiled
code before binding depends only on the source: it can be cached.

Why this shape:
- Happy path: a bare `try` costs nothing in 3.11+ (exception tables; 3.12+ moves the handler out
  of line). 3.11 lays the handler out inline, so it is kept small: a loop whose body grows past
  255 code units pays an EXTENDED_ARG per iteration.
- The handler binds no name: the runtime keeps the failure's state keyed by the original
  exception (`sys.exception()` in the handler, its `__context__` in the retry's handler), the
  frame and K, and drops it when the final decision is read (or a BaseException leaves).
- The retry runs inside the handler, in the same scope, so `return`, `yield`, `await`,
  `global`/`nonlocal`, `super()`'s `__class__` cell and name mangling behave as in STMT. The
  retry copy is a simple statement, which cannot contain `break`/`continue` for the generated
  loop to capture.
- Binding is done by generated code rather than by writing frame locals, so it is right in
  functions, closures, class bodies and modules on every Python version.

On 3.11 an imported module takes bytecode/instrument.py instead where it can: the same handlers,
laid out as the compiler lays out this shape, added to the module's plain code object (no
compile of the instrumented tree); this file's shape is the reference it is tested against.
"""

from __future__ import annotations

from ..preparation import syntax_tree as ast  # ast's functions over _ast's classes, without importing ast.py
# Placeholder constants of the generated handlers; code_constants.bind replaces them.
from ..preparation.code_constants import ASKED, CALLS, EXCEPTION, KEY_OFFSET, RECURSION_ERROR
from .selection import merged_ranges, selected_sites
from .statement_index import index_statements

__all__ = ["Instrumented", "instrument_selected"]


class Instrumented:
    """The transformed tree and the checkpoints it calls, in index order (K = 0, 1, …)."""

    def __init__(self, tree, checkpoints):
        self.tree = tree
        self.checkpoints = checkpoints


def instrument_selected(tree: ast.Module, *, source: str, entry: bool, name: str,
                        rendering=None) -> tuple[Instrumented, list]:
    """The checkpoints of SPEC §4.2 (selection.selected_sites) selected and instrumented in one
    walk of the statements (`source` the text of `tree`; `rendering` as selected_sites takes it,
    for a plan's rewritten program); also the file's user try/with body ranges, read before the
    transform adds its own (selection.protected_ranges). `tree` is changed in place."""
    ranges: list = []
    sites = index_statements(tree, ranges)
    resolved = []
    for index, (site, info) in enumerate(selected_sites(sites, source, entry=entry, name=name, rendering=rendering)):
        info["is_return"] = isinstance(site.node, ast.Return)
        resolved.append(info)
        site.body[site.position] = _Handler(site.node, index).wrap(info)
    return Instrumented(tree, resolved), merged_ranges(ranges)


_LOAD = ast.Load()  # one context node for every load, as ast.parse shares its own
_STORE = ast.Store()
_IN = ast.In()
_NEW = ast.AST.__new__


class _Handler:
    """Builds the generated statements for one checkpoint, all at the statement's position.

    Nodes that recur (K, the exception class, the bare `raise`, the call `R.retry(K)`) are made
    once per checkpoint and shared: compile() reads each occurrence on its own, and building
    nodes is most of the transform's cost."""

    def __init__(self, stmt, index):
        self.stmt, self.index = stmt, index
        self.where = {"lineno": stmt.lineno, "col_offset": stmt.col_offset,
                      "end_lineno": stmt.end_lineno, "end_col_offset": stmt.end_col_offset}
        self._key = self.const(index + KEY_OFFSET)
        self._exception = self.const(EXCEPTION)
        self._raise = self.node(ast.Raise, {"exc": None, "cause": None})

    def node(self, kind, fields):
        """A node at the statement's position, made without the keyword checks of the node's
        constructor (they were most of the transform's cost): `fields` (a dict made for this
        node alone) becomes its attribute dictionary."""
        fields |= self.where
        node = _NEW(kind)
        node.__dict__ = fields
        return node

    def wrap(self, info) -> ast.Try:
        node = self.node
        if not info["retry_allowed"] and not info["target"]:
            steps = [self.raise_if(self.call("settle"))]
            if info["is_return"]:
                steps.append(node(ast.Return, {"value": None}))
        else:
            steps = [self.retry(info["retry_allowed"]), self.raise_if(self.call("raising"))]
            if info["target"]:
                store = node(ast.Name, {"id": info["target"], "ctx": _STORE})
                bind = node(ast.Assign, {"targets": [store], "value": self.call("value"), "type_comment": None})
                steps.append(node(ast.If, {"test": self.call("binding"), "body": [bind], "orelse": []}))
            if info["is_return"] and self.stmt.value is None:
                # A bare `return` stays bare: a value is a SyntaxError in an async generator.
                steps += [node(ast.Expr, {"value": self.call("returned")}), node(ast.Return, {"value": None})]
            elif info["is_return"]:
                steps.append(node(ast.Return, {"value": self.call("returned")}))
        recursion = node(ast.ExceptHandler, {"type": self.const(RECURSION_ERROR), "name": None, "body": [self._raise]})
        return node(ast.Try, {"body": [self.stmt], "handlers": [recursion, self.handler(steps)], "orelse": [],
                              "finalbody": []})

    def retry(self, allowed: bool) -> ast.stmt:
        """`if R.retry(K): <retry loop>`, or only the decision where retrying is not allowed. A
        BaseException leaving the retry loop drops the failure's state on its way out."""
        node = self.node
        decide = self.call("retry")
        if not allowed:
            return node(ast.Expr, {"value": decide})
        again = node(ast.If, {"test": decide, "body": [node(ast.Continue, {})], "orelse": []})
        attempt = node(ast.Try, {"body": [self.retry_copy()], "handlers": [self.handler([again])], "orelse": [],
                                 "finalbody": []})
        loop = node(ast.While, {"test": self.const(True), "body": [attempt, node(ast.Break, {})], "orelse": []})
        forget = node(ast.Expr, {"value": self.call("forget")})
        leaving = node(ast.ExceptHandler, {"type": None, "name": None, "body": [forget, self._raise]})
        guarded = node(ast.Try, {"body": [loop], "handlers": [leaving], "orelse": [], "finalbody": []})
        return node(ast.If, {"test": decide, "body": [guarded], "orelse": []})

    def retry_copy(self) -> ast.stmt:
        """The statement again; a `return EXPR` keeps its value (`keep[K] = EXPR`) for `R.returned(K)` instead.

        The very same node, not a copy: compile() turns each occurrence of a node into code of
        its own, and nothing changes the tree after this transform (a statement that is retried
        is a simple one, holding no body that a later checkpoint rewrites). Copying the nodes
        was most of the cost of instrumenting a module."""
        stmt = self.stmt
        if not isinstance(stmt, ast.Return):
            return stmt
        value = stmt.value if stmt.value is not None else self.const(None)
        target = self.node(ast.Subscript, {"value": self.const(CALLS["keep"]), "slice": self._key, "ctx": _STORE})
        return self.node(ast.Assign, {"targets": [target], "value": value, "type_comment": None})

    def const(self, value):
        return self.node(ast.Constant, {"value": value, "kind": None})

    def call(self, method: str):
        """`K + KEY_OFFSET in CALLS[method]` for a true-or-false answer, else `CALLS[method][K + KEY_OFFSET]`."""
        calls = self.const(CALLS[method])
        if method in ASKED:
            return self.node(ast.Compare, {"left": self._key, "ops": [_IN], "comparators": [calls]})
        return self.node(ast.Subscript, {"value": calls, "slice": self._key, "ctx": _LOAD})

    def handler(self, body):
        return self.node(ast.ExceptHandler, {"type": self._exception, "name": None, "body": body})

    def raise_if(self, condition):
        return self.node(ast.If, {"test": condition, "body": [self._raise], "orelse": []})
