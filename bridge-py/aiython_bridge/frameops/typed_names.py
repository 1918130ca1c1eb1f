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
value back (or is unbound again), one it deleted gets its value back, and the result names each
one with both types. A typed name whose value the op changed in place (`xs.append('two')` on
`xs: list[int]`) cannot be given back: it is reported, and `spoiled()` keeps reporting it until
the model puts it right, so a block cannot finish on it (pauses/ops.py, recovery/pause.py). Only
values that satisfied their type before the op are held to it, and values of immutable types are
not checked again (they cannot change in place).

`source_globals(frame)`: the names a function's own `global` statements declare, read from the
same parse (a `global x` that the function only reads leaves no trace in its bytecode).
"""

from __future__ import annotations

import ast

from .. import contracts, pycompat
from ..preparation import program_code
from ..errors import TypeContractError, UnsupportedAnnotation

__all__ = ["TypedNames", "source_globals"]

_EMPTY = object()
_function_annotations: dict[tuple[str, int], dict[tuple[str, int], tuple[dict[str, str], frozenset[str]]]] = {}
_IMMUTABLE = (int, float, complex, str, bytes, bool, type(None), frozenset, range)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _source_of(filename: str, frame) -> str | None:
    text = program_code.REWRITTEN.get(filename)
    if text is not None:
        return text
    import linecache

    lines = linecache.getlines(filename, frame.f_globals)
    return "".join(lines) if lines else None


def _annotations_by_function(filename: str, text: str) -> dict[tuple[str, int], tuple[dict[str, str], frozenset[str]]]:
    """(name, first line) of every function in the file → its typed names' annotation texts, and
    the names its `global` statements declare."""
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


def _function_scope(node) -> tuple[dict[str, str], frozenset[str]]:
    names: dict[str, str] = {}
    declared: set[str] = set()
    args = node.args
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        if arg.annotation is not None:
            names[arg.arg] = ast.unparse(arg.annotation)
    pending = list(node.body)
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            names.setdefault(stmt.target.id, ast.unparse(stmt.annotation))
        elif isinstance(stmt, ast.Global):
            declared.update(stmt.names)
        for child in ast.iter_child_nodes(stmt):
            if not isinstance(child, _SCOPES) and isinstance(child, ast.stmt):
                pending.append(child)
    return names, frozenset(declared)


def _declarations(frame) -> tuple[dict[str, str], frozenset[str]]:
    """The function frame's typed names' annotation texts and its `global` names, from its source."""
    code = frame.f_code
    text = _source_of(code.co_filename, frame)
    if not text:
        return {}, frozenset()
    return _annotations_by_function(code.co_filename, text).get((code.co_name, code.co_firstlineno), ({}, frozenset()))


def source_globals(frame) -> frozenset[str]:
    """The names a function frame's own `global` statements declare (empty for other frames)."""
    return _declarations(frame)[1] if pycompat.is_optimized(frame) else frozenset()


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
        self.spoiled: set[str] = set()  # changed in place to a wrong value by an op of this invocation
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
        scope, declared = _declarations(frame)
        owned = set(pycompat.frame_local_names(code))
        for name, annotation in scope.items():
            tp = _resolve(annotation, frame) if name in owned else None
            if tp is not None:
                self.local[name] = tp
        module_annotations = frame.f_globals.get("__annotations__")
        if type(module_annotations) is dict:
            for name in pycompat.declared_globals(code) | declared:
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

    def mutable_and_valid(self, before: dict[str, object]) -> frozenset[str]:
        """The names whose value (before an op) could change in place and satisfies its type."""
        held = set()
        for name, value in before.items():
            if value is _EMPTY or isinstance(value, _IMMUTABLE) or name in self.spoiled:
                continue
            if self._satisfies(name, value):
                held.add(name)
        return frozenset(held)

    def restore_violations(self, before: dict[str, object], held: frozenset[str] = frozenset()) -> list[str]:
        """Puts back every typed name rebound to a wrong-typed value or deleted, and reports those
        of `held` changed in place to a wrong value (which stay as they are); one message per name."""
        after = self.snapshot()
        problems = []
        for name, old in before.items():
            new = after[name]
            if new is old:
                if name in held and not self._satisfies(name, new):
                    self.spoiled.add(name)
                    problems.append(f"{self._violation(name, new)}; {name} was changed in place, which cannot be undone: "
                                    "put it right (or replace it) before the block ends")
                continue
            if new is _EMPTY:
                if old is not _EMPTY:
                    problems.append(f"{name}: expected {contracts.type_repr(self.expected(name))}, but the code deleted it; "
                                    f"{self._put_back(name, old)}")
                continue
            try:
                contracts.check_object(new, self.expected(name), name)
            except TypeContractError as exc:
                problems.append(f"{exc}; {self._put_back(name, old)}")
        return problems

    def still_spoiled(self) -> list[str]:
        """The names changed in place to a wrong value that are wrong still (checked again now)."""
        values = self.snapshot()
        problems = []
        for name in sorted(self.spoiled):
            value = values.get(name, _EMPTY)
            if value is not _EMPTY and not self._satisfies(name, value):
                problems.append(self._violation(name, value))
            else:
                self.spoiled.discard(name)
        return problems

    def _satisfies(self, name: str, value) -> bool:
        try:
            contracts.check_object(value, self.expected(name), name)
        except (TypeContractError, RecursionError):
            return False
        return True

    def _violation(self, name: str, value) -> str:
        try:
            contracts.check_object(value, self.expected(name), name)
        except TypeContractError as exc:
            return str(exc)
        except RecursionError:
            pass
        return f"{name}: expected {contracts.type_repr(self.expected(name))}"

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
