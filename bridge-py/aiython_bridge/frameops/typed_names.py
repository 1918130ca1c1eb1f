"""Typed names of a paused frame (SPEC §6) and the check that a tool left each with a value of
its type.

A name is typed when the frame's scope annotates it: a module's or class body's
`__annotations__` (annotations executed so far), or, in a function, an annotated parameter or an
`x: T` statement anywhere in its body (nested functions and classes are their own scopes), plus
the names it declares `global` that the module annotates. Function annotations are read from
the source CPython compiled (program_code.REWRITTEN for files with AI blocks, else linecache),
parsed once per file. Annotations outside SPEC §6's set are not checked.

`TypedNames.snapshot()` before an op and `restore_violations(before)` after it: every typed
name the op rebound (by identity) to a value that does not satisfy its type gets its previous
value back (or is unbound again), and the result names each one with both types.
"""

from __future__ import annotations

import ast

from .. import contracts, pycompat
from ..preparation import program_code
from ..errors import TypeContractError, UnsupportedAnnotation

__all__ = ["TypedNames"]

_EMPTY = object()
_function_annotations: dict[tuple[str, int], dict[tuple[str, int], dict[str, str]]] = {}
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _source_of(filename: str, frame) -> str | None:
    text = program_code.REWRITTEN.get(filename)
    if text is not None:
        return text
    import linecache

    lines = linecache.getlines(filename, frame.f_globals)
    return "".join(lines) if lines else None


def _annotations_by_function(filename: str, text: str) -> dict[tuple[str, int], dict[str, str]]:
    """(name, first line) of every function in the file → its typed names' annotation texts."""
    key = (filename, hash(text))
    found = _function_annotations.get(key)
    if found is None:
        found = {}
        try:
            tree = ast.parse(text, filename)
        except (SyntaxError, ValueError):
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                found[(node.name, first)] = _function_scope(node)
        _function_annotations[key] = found
    return found


def _function_scope(node) -> dict[str, str]:
    names: dict[str, str] = {}
    args = node.args
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        if arg.annotation is not None:
            names[arg.arg] = ast.unparse(arg.annotation)
    pending = list(node.body)
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            names.setdefault(stmt.target.id, ast.unparse(stmt.annotation))
        for child in ast.iter_child_nodes(stmt):
            if not isinstance(child, _SCOPES) and isinstance(child, ast.stmt):
                pending.append(child)
    return names


def _resolve(annotation, frame):
    """The type an annotation (text or object) names, or None when it cannot be checked."""
    try:
        if isinstance(annotation, str):
            return contracts.resolve_annotation(annotation, frame.f_globals, frame.f_locals)
        return annotation if contracts.is_supported(annotation) else None
    except (UnsupportedAnnotation, RecursionError):
        return None


class TypedNames:
    """The typed names of one frame, resolved once (an invocation keeps one)."""

    def __init__(self, frame):
        self.frame = frame
        self.optimized = pycompat.is_optimized(frame)
        self.local: dict[str, object] = {}
        self.module: dict[str, object] = {}
        if self.optimized:
            self._read_function(frame)
        else:
            namespace = frame.f_locals
            annotations = namespace.get("__annotations__") if type(namespace) is dict else None
            for name, annotation in (annotations.items() if type(annotations) is dict else ()):
                tp = _resolve(annotation, frame)
                if tp is not None and type(name) is str:
                    self.local[name] = tp

    def _read_function(self, frame) -> None:
        code = frame.f_code
        text = _source_of(code.co_filename, frame)
        scope = _annotations_by_function(code.co_filename, text).get((code.co_name, code.co_firstlineno), {}) if text else {}
        owned = set(pycompat.frame_local_names(code))
        for name, annotation in scope.items():
            tp = _resolve(annotation, frame) if name in owned else None
            if tp is not None:
                self.local[name] = tp
        module_annotations = frame.f_globals.get("__annotations__")
        if type(module_annotations) is dict:
            for name in pycompat.declared_globals(code):
                if name in module_annotations:
                    tp = _resolve(module_annotations[name], frame)
                    if tp is not None:
                        self.module[name] = tp

    def __bool__(self) -> bool:
        return bool(self.local or self.module)

    def expected(self, name: str):
        """The type of `name` in this frame, or None when it is not typed."""
        return self.local.get(name, self.module.get(name))

    def snapshot(self) -> dict[str, object]:
        values = pycompat.read_frame_locals(self.frame) if self.optimized else self.frame.f_locals
        before = {name: values.get(name, _EMPTY) for name in self.local}
        before.update({name: self.frame.f_globals.get(name, _EMPTY) for name in self.module})
        return before

    def restore_violations(self, before: dict[str, object]) -> list[str]:
        """Puts back every typed name rebound to a wrong-typed value; one message per name."""
        after = self.snapshot()
        problems = []
        for name, old in before.items():
            new = after[name]
            if new is old or new is _EMPTY:
                continue
            try:
                contracts.check_object(new, self.expected(name), name)
            except TypeContractError as exc:
                problems.append(f"{exc}; {self._put_back(name, old)}")
        return problems

    def _put_back(self, name: str, old) -> str:
        frame = self.frame
        if name in self.module or not self.optimized:
            namespace = frame.f_globals if name in self.module else frame.f_locals
            if old is _EMPTY:
                namespace.pop(name, None)
            else:
                namespace[name] = old
        else:
            try:
                pycompat.write_frame_locals(frame, {} if old is _EMPTY else {name: old}, [name] if old is _EMPTY else [])
            except pycompat.LocalsWriteUnsupported:
                return f"{name} had no value before and cannot be unbound on this Python, so it keeps the new one"
        return f"{name} was given back its previous value" if old is not _EMPTY else f"{name} was unbound again"
