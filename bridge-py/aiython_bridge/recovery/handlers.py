"""Whether a library frame would handle an exception that comes out of the call it is making
(SPEC §4.2: consult only for an exception nothing on the stack would handle).

Checked without running program code:
1. The code object's exception table (3.11+) says whether the frame's current instruction is
   covered by any handler at all; most frames are not, and the answer is "no" at once.
2. Otherwise the source's AST says which `try` and `with` bodies hold the frame's current line:
   - a `try` handles the exception when one of its `except` clauses could take it: a bare
     `except`, a class the exception is an instance of (`except Exception` included), or a
     clause whose classes cannot be looked up statically; a clause whose body ends in a bare
     `raise` passes the exception on and does not count;
   - a `with` handles it unless its context manager is known not to suppress: one whose
     `__exit__` is written in C (locks, files, sockets), or a Python `__exit__` that returns
     nothing but None or False (asyncio.Runner, warnings.catch_warnings). The manager is found
     from the `with` item statically (a name, an attribute through instance dictionaries, or a
     call of a class); anything else (`contextlib.suppress`, `self.assertRaises(...)`, generator
     managers) counts as handling.
   A frame whose source cannot be read counts as handling whenever the exception table covers
   the instruction.
"""

from __future__ import annotations

import ast
import sys

from .. import pycompat

__all__ = ["HandlerIndex", "lookup", "parse_source", "resolve_classes"]

_MODULE = type(sys)
_FUNCTION = type(lambda: None)
_TRY = (ast.Try,) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
_WITH = (ast.With, ast.AsyncWith)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


class HandlerIndex:
    """The exception tables, `try`/`with` statements and `__exit__` verdicts read so far."""

    def __init__(self):
        # id(code object) -> (code object, [(start, end)] in code units): by id, since hashing a
        # code object reads its whole bytecode on 3.12+ (and the object is kept, so its id is its own).
        self._tables: dict = {}
        self._statements: dict[str, list | None] = {}  # file -> [(body start, body end, node)]
        self._exits: dict = {}  # __exit__ code object -> suppresses?

    def frame_handles(self, frame, exc) -> bool:
        if not self._covered(frame.f_code, frame.f_lasti // 2):
            return False
        line = frame.f_lineno
        statements = self._statements_of(frame)
        if statements is None or line is None:
            return True
        for start, end, node in statements:
            if start <= line <= end and self._statement_handles(node, frame, exc):
                return True
        return False

    # ---- 1. the exception table ----

    def _covered(self, code, unit: int) -> bool:
        entry = self._tables.get(id(code))
        if entry is None or entry[0] is not code:
            entry = self._tables[id(code)] = (code, _exception_table(code))
        return any(start <= unit < end for start, end in entry[1])

    # ---- 2. the source ----

    def _statements_of(self, frame):
        filename = frame.f_code.co_filename
        if filename not in self._statements:
            tree = parse_source(filename, frame)
            self._statements[filename] = None if tree is None else [
                (node.body[0].lineno, max(s.end_lineno or s.lineno for s in node.body), node)
                for node in ast.walk(tree) if isinstance(node, _TRY + _WITH) and node.body
            ]
        return self._statements[filename]

    def _statement_handles(self, node, frame, exc) -> bool:
        if isinstance(node, _TRY):
            return any(self._clause_takes(handler, frame, exc) for handler in node.handlers)
        return not all(self._transparent_manager(item.context_expr, frame, isinstance(node, ast.AsyncWith))
                       for item in node.items)

    def _clause_takes(self, handler, frame, exc) -> bool:
        body = handler.body
        if body and isinstance(body[-1], ast.Raise) and body[-1].exc is None:
            return False  # passes the exception on
        if handler.type is None:
            return True
        classes = resolve_classes(handler.type, frame)
        if classes is None:
            return True  # not statically known: it might
        return any(isinstance(exc, cls) for cls in classes)

    def _transparent_manager(self, expr, frame, is_async: bool) -> bool:
        """Whether the manager of a `with` item is known never to suppress an exception."""
        name = "__aexit__" if is_async else "__exit__"
        if isinstance(expr, ast.Call):
            cls = lookup(expr.func, frame)
            if not isinstance(cls, type):
                return False
        else:
            obj = lookup(expr, frame)
            if obj is None:
                return False
            cls = type(obj)
        exit_method = _class_attribute(cls, name)
        if exit_method is None:
            return False
        if not isinstance(exit_method, _FUNCTION):
            return True  # written in C: locks, files, sockets
        return not self._exit_may_suppress(exit_method)

    def _exit_may_suppress(self, function) -> bool:
        code = function.__code__
        verdict = self._exits.get(code)
        if verdict is None:
            verdict = self._exits[code] = _returns_something(code, function.__globals__)
        return verdict


def _exception_table(code) -> list[tuple[int, int]]:
    """(start, end) of each entry of a 3.11+ code object's exception table, in code units. The
    table is a sequence of varint-encoded (start, length, target, depth and lasti) entries."""
    data = getattr(code, "co_exceptiontable", b"")
    entries, position = [], 0

    def varint():
        nonlocal position
        byte = data[position]
        position += 1
        value = byte & 63
        while byte & 64:
            byte = data[position]
            position += 1
            value = (value << 6) | (byte & 63)
        return value

    while position < len(data):
        start = varint()
        length = varint()
        varint()  # target
        varint()  # depth and lasti
        entries.append((start, start + length))
    return entries


def parse_source(filename, frame):
    """The AST of the file a frame runs, or None when its source cannot be read or parsed."""
    if filename.startswith("<frozen "):
        module_file = frame.f_globals.get("__file__")
        filename = module_file if isinstance(module_file, str) else filename
    return _parse(filename, frame.f_globals)


def resolve_classes(node, frame):
    """The exception classes a handler expression names, or None if one cannot be looked up."""
    found, pending = [], [node]
    while pending:
        item = pending.pop()
        if isinstance(item, ast.Tuple):
            pending.extend(item.elts)
            continue
        value = lookup(item, frame)
        if isinstance(value, tuple):
            found.extend(v for v in value if isinstance(v, type))
        elif isinstance(value, type) and issubclass(value, BaseException):
            found.append(value)
        else:
            return None
    return found


def lookup(node, frame):
    """The value of a name or attribute chain in the frame, read from dictionaries only (no
    property, descriptor or `__getattr__` of the program runs); None when unknown."""
    if isinstance(node, ast.Name):
        for namespace in (_frame_locals(frame), frame.f_globals, frame.f_builtins):
            if type(namespace) is dict and node.id in namespace:
                return namespace[node.id]
        return None
    if isinstance(node, ast.Attribute):
        base = lookup(node.value, frame)
        if base is None:
            return None
        if isinstance(base, _MODULE):
            return _MODULE.__dict__["__dict__"].__get__(base).get(node.attr)
        if isinstance(base, type):
            return _class_attribute(base, node.attr)
        instance_dict = getattr(type(base), "__dict__", {}).get("__dict__")
        namespace = instance_dict.__get__(base) if instance_dict is not None else None
        if type(namespace) is dict and node.attr in namespace:
            return namespace[node.attr]
    return None


def _frame_locals(frame):
    return pycompat.read_frame_locals(frame) if pycompat.is_optimized(frame) else frame.f_locals


def _class_attribute(cls, name):
    for klass in type.__dict__["__mro__"].__get__(cls):
        namespace = type.__dict__["__dict__"].__get__(klass)
        if name in namespace:
            return namespace[name]
    return None


def _returns_something(code, globals_) -> bool:
    """Whether the function may return a value other than None or False (conservatively True
    when its source cannot be read)."""
    tree = _parse(code.co_filename, globals_)
    if tree is None:
        return True
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == code.co_name:
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if first == code.co_firstlineno:
                return _has_value_return(node)
    return True


def _has_value_return(function) -> bool:
    pending = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, ast.Return) and node.value is not None:
            if not (isinstance(node.value, ast.Constant) and node.value.value in (None, False)):
                return True
        pending.extend(ast.iter_child_nodes(node))
    return False


def _parse(filename, globals_):
    import linecache  # (and tokenize) only when an exception is analysed: python3 starts without them

    try:
        return pycompat.parse_ast("".join(linecache.getlines(filename, globals_)), filename)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
