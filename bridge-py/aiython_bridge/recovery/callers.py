"""The frames around a failing checkpoint (SPEC §4.2): whose handler sees it first, whom a retry replays.

A failure is left to the program when a calling frame would see it first:
- a project frame whose current line is inside a user `try` or `with` body (ranges registered
  when the module was instrumented, else computed from the AST);
- a library frame inside a `try` whose `except` names a class that matches the exception (a
  fallback such as `Mapping.get`; catch-alls like `except Exception` or a bare `except` are
  last-resort handlers and do not count);
- a bridge frame other than the boot script's, on which the program runs (the code runs inside a
  tool call of another pause).

`retry` is offered only if the traceback below the checkpoint's frame passes through no other
project frame (code objects defined inside the statement itself, such as comprehensions and
lambdas, are part of it): retrying would run that function's effects again.

Whose code a file is comes from paths.py; a file this runtime instrumented is project code
whatever paths.py says. Each file's source is parsed at most once.
"""

from __future__ import annotations

import ast
import linecache
import sys

from .. import modules, paths
from ..paths import BRIDGE, LIBRARY, PROJECT

_BOOT_FUNCTION = "<module>"  # start/importlib_bootstrap.py: the frame the program runs on


class Callers:
    """One runtime's view of the stack: the files it instrumented, their try/with body ranges, and
    the typed handlers of library files, each read once."""

    def __init__(self, project_root: str | None):
        self.project_root = project_root
        self._registered: set[str] = set()
        self._ranges: dict[str, list] = {}
        self._handlers: dict[str, list] = {}

    def register(self, filename: str, ranges) -> None:
        """An instrumented file and its try/with body ranges (the plan's, or computed)."""
        self._ranges[filename] = sorted([int(a), int(b)] for a, b in ranges)
        self._registered.add(filename)

    def kind(self, filename: str) -> str:
        return PROJECT if filename in self._registered else paths.kind(filename, self.project_root)

    def caller_sees_first(self, frame, exc) -> bool:
        """Whether a calling frame would see `exc` before the program's top (module docstring)."""
        caller = frame.f_back
        while caller is not None:
            code = caller.f_code
            kind = self.kind(code.co_filename)
            if kind == BRIDGE:
                return not (code.co_name == _BOOT_FUNCTION and caller.f_back is None)
            line = caller.f_lineno
            if line is not None:
                if kind == PROJECT and _inside(self._project_ranges(code.co_filename, caller), line):
                    return True
                if kind == LIBRARY and self._library_catches(caller, line, exc):
                    return True
            caller = caller.f_back
        return False

    def through_other_project_frame(self, frame, exc, checkpoint) -> bool:
        tb = exc.__traceback__
        first, last = checkpoint.span["line"], checkpoint.span["end_line"]
        while tb is not None:
            code = tb.tb_frame.f_code
            if tb.tb_frame is not frame and self.kind(code.co_filename) == PROJECT:
                inside_statement = code.co_filename == checkpoint.filename and first <= code.co_firstlineno <= last
                if not inside_statement:
                    return True
            tb = tb.tb_next
        return False

    def _project_ranges(self, filename, frame) -> list:
        ranges = self._ranges.get(filename)
        if ranges is None:
            protected_ranges = modules.load("aiython_bridge.recovery.instrument").protected_ranges
            tree = _parse(filename, frame)
            ranges = self._ranges[filename] = protected_ranges(tree) if tree is not None else []
        return ranges

    def _library_catches(self, frame, line, exc) -> bool:
        filename = frame.f_code.co_filename
        entries = self._handlers.get(filename)
        if entries is None:
            entries = self._handlers[filename] = _specific_handlers(_parse(filename, frame))
        for start, end, types in entries:
            if start <= line <= end:
                for cls in _resolve_classes(types, frame):
                    if cls is not Exception and cls is not BaseException and isinstance(exc, cls):
                        return True
        return False


def _inside(ranges, line) -> bool:
    return any(start <= line <= end for start, end in ranges)


def _parse(filename, frame):
    if filename.startswith("<frozen "):
        module_file = frame.f_globals.get("__file__")
        filename = module_file if isinstance(module_file, str) else filename
    try:
        return ast.parse("".join(linecache.getlines(filename, frame.f_globals)), filename)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def _specific_handlers(tree) -> list:
    """(body start, body end, handler type nodes) of every try that has typed handlers."""
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))) and node.body:
            types = [h.type for h in node.handlers if h.type is not None]
            if types:
                found.append((node.body[0].lineno, max(s.end_lineno or s.lineno for s in node.body), types))
    return found


def _resolve_classes(nodes, frame):
    """The exception classes handler expressions name, looked up without running program code."""
    module_type = type(sys)
    pending = list(nodes)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Tuple):
            pending.extend(node.elts)
            continue
        value = _lookup(node, frame, module_type)
        if isinstance(value, type) and issubclass(value, BaseException):
            yield value


def _lookup(node, frame, module_type):
    if isinstance(node, ast.Name):
        for namespace in (frame.f_globals, frame.f_builtins):
            if type(namespace) is dict and node.id in namespace:
                return namespace[node.id]
        return None
    if isinstance(node, ast.Attribute):
        base = _lookup(node.value, frame, module_type)
        if isinstance(base, module_type):
            return module_type.__dict__["__dict__"].__get__(base).get(node.attr)
    return None
