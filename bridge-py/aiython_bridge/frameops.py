"""Frame operations behind the model's tools (SPEC §5.2), run on the paused frame's own thread.

Over 400 lines: the scope compiler and the write-back must sit beside the Invocation whose
overlay and handle table they update.

One ``Invocation`` holds the state of one AI invocation against one paused frame: the handle
table (``object-N`` by identity, strong references kept so ids are never reused), the values of
earlier calls by result id, and an overlay of names that ``execute`` created in a function frame.
Threading and the wire belong to the runner; every method here is a plain call that returns a
JSON-able dict or raises ``ToolError`` (the tool result ``{"status":"error","error","message"}``).

How code runs in a function frame (``evaluate`` / ``execute``): the code is compiled as the body
of a nested function whose free variables are the frame's locals, cells and free variables, so
comprehensions, generator expressions and lambdas in the code see the frame's locals (plain
``exec(code, globals, f_locals)`` would not: their bodies look names up as globals). The closure
cells are filled from the frame, the function runs, and every cell the code changed is written
back through ``pycompat.write_frame_locals`` (PyFrame_LocalsToFast on 3.11/3.12, the PEP 667
proxy on 3.13+). Names the frame's code declares ``global`` (and assigns) are declared ``global``
in the wrapper, so writes reach the module; the code's own ``global`` statements are honoured.

New names in a function frame: a running function cannot gain fast locals on any version. On
3.11/3.12 an extra key in ``f_locals`` would be silently dropped by LocalsToFast; on 3.13 the
proxy would keep it in the frame's extra-locals dict, visible to debuggers but never to the
function's code. To behave the same everywhere, new names never touch the frame: they live in
the invocation's overlay, visible to later ``evaluate``/``execute``/``get_binding`` calls of the
same invocation and gone when it ends. Unbinding a frame local (``del x``) works on 3.11 only;
on 3.12+ it is a tool error, raised before the code runs when a ``del`` statement names it
(3.12's LocalsToFast would bind None with a RuntimeWarning, 3.13's proxy refuses).

Module and class frames run the code directly in their namespace (``eval(code, f_globals,
f_locals)``), as CPython would run statements there.

Program exceptions come back as ``ToolError(<class name>, str(exc)[:2000])``; ``SystemExit`` too
(a tool cannot end the program). ``KeyboardInterrupt`` and other BaseExceptions propagate.
"""

from __future__ import annotations

import os

from . import describe, paths, pycompat
from .paths import display_path

MESSAGE_LIMIT = 2000
CODE_CONTEXT_CAP = 12_000  # SPEC §5.1 hard cap of code context
WHOLE_SCOPE_LIMIT = 4096  # SPEC §5.1: the enclosing function/class whole if at most this
WINDOW_BEFORE = 25  # lines shown before the current line when windowing
WINDOW_AFTER = 15
FRAMES_LIMIT = 8  # frames(): innermost project frames kept
FRAME_LOCALS_LIMIT = 20  # frames(): locals listed per frame

_EMPTY = object()
_OUTER = "_aiython_outer_"
_SCOPE = "_aiython_scope_"


class ToolError(Exception):
    """A tool call failed; ``error_type`` and ``message`` go back to the model as data."""

    def __init__(self, error_type: str, message: str):
        super().__init__(f"{error_type}: {message}")
        self.error_type = error_type
        self.message = message

    def to_dict(self) -> dict:
        """The ``error`` of a failed FrameOpResult (src/recovery/ports.ts)."""
        return {"type": self.error_type, "message": self.message}


def program_error(exc: BaseException) -> ToolError:
    """The program's exception as a tool error: its class name and ``str()`` (bounded)."""
    name = describe.type_names(type(exc))[0]
    try:
        message = str(exc)
    except Exception as failure:
        message = f"<str() of the {name} failed with {describe.type_names(type(failure))[0]}>"
    return ToolError(name, message[:MESSAGE_LIMIT])


def _syntax_error(exc: SyntaxError) -> ToolError:
    kind = describe.type_names(type(exc))[0]
    message = exc.msg or "invalid syntax"
    if kind != "SyntaxError":
        message = f"{kind}: {message}"
    if exc.lineno:
        message += f" (line {exc.lineno}" + (f", column {exc.offset})" if exc.offset else ")")
    text = (exc.text or "").strip()
    if text:
        message += f": {text[:200]}"
    return ToolError("SyntaxError", message[:MESSAGE_LIMIT])


def _check_name(name) -> str:
    if type(name) is not str or not name.isidentifier():
        raise ToolError("ValueError", f"name must be a Python identifier, got {name!r}")
    return name


class Invocation:
    """State of one AI invocation against one paused frame (see the module docstring).

    ``line``: the line of the block or failing statement (default ``frame.f_lineno``).
    ``traceback``: in recovery, the exception's traceback (its frames feed ``frames()``; its
    deepest project frame is the origin unless ``origin_frame`` is given).
    ``context_values``: whether request content (related/frame objects) carries values; tool
    results always do, since the model asked for them.
    """

    def __init__(self, frame, *, origin_frame=None, traceback=None, line: int | None = None,
                 project_root: str | None = None, context_values: bool = True):
        self.frame = frame
        self.traceback = traceback
        self.line = line if line is not None else frame.f_lineno
        self.project_root = os.path.realpath(project_root) if project_root else None
        self.origin_frame = origin_frame
        self.origin_line = origin_frame.f_lineno if origin_frame is not None else None
        tb = traceback
        while tb is not None:
            # The origin is the deepest project frame of the traceback (or the given one).
            matches = tb.tb_frame is origin_frame if origin_frame is not None else (
                tb.tb_frame is frame or self._is_project_file(tb.tb_frame.f_code.co_filename))
            if matches:
                self.origin_frame, self.origin_line = tb.tb_frame, tb.tb_lineno
            tb = tb.tb_next
        self.context_values = context_values
        self._handle_by_id: dict[int, str] = {}
        self._objects: dict[str, object] = {}
        self._results: dict[str, object] = {}
        self._overlay: dict[str, object] = {}
        self._frame_globals: frozenset[str] | None = None

    # ---- handles and remembered values ----

    def handle(self, obj) -> str:
        """The ``object-N`` handle of ``obj``, assigned on first sight, stable by identity."""
        handle = self._handle_by_id.get(id(obj))
        if handle is None:
            handle = f"object-{len(self._objects) + 1}"
            self._handle_by_id[id(obj)] = handle
            self._objects[handle] = obj
        return handle

    def descriptor(self, obj) -> dict:
        return describe.descriptor(obj, self.handle(obj))

    def lookup_handle(self, handle: str) -> object:
        if type(handle) is str and handle in self._objects:
            return self._objects[handle]
        known = f"object-1 … object-{len(self._objects)}" if self._objects else "none yet"
        raise ToolError("UnknownHandle", f"no object {handle!r} in this invocation (known: {known}); "
                        "use a handle from the request or from evaluate, get_binding, inspect or frames")

    def remember(self, result_id: str, value) -> None:
        self._results[result_id] = value

    def recall(self, result_id: str) -> object:
        try:
            return self._results[result_id]
        except (KeyError, TypeError):
            raise ToolError("UnknownResult", f"no value was produced under {result_id!r}; reference the "
                            "result_id or tool-call id of an earlier evaluate or get_binding call") from None

    def close(self) -> None:
        """Drop every reference the invocation holds (frames, handles, values)."""
        self._handle_by_id.clear()
        self._objects.clear()
        self._results.clear()
        self._overlay.clear()
        self.frame = self.origin_frame = self.traceback = None

    # ---- tools ----

    def evaluate(self, code: str, result_id: str | None = None) -> dict:
        value = self._run(code, "eval")
        if result_id is not None:
            self.remember(result_id, value)
        return self.descriptor(value)

    def execute(self, code: str) -> dict:
        self._run(code, "exec")
        return {"ok": True}

    def get_binding(self, name: str, result_id: str | None = None) -> dict:
        value, scope = self._resolve(_check_name(name))
        if result_id is not None:
            self.remember(result_id, value)
        return {**self.descriptor(value), "scope": scope}

    def set_binding(self, name: str, obj) -> dict:
        """Bind ``obj`` itself (identity kept). The caller type-checks it first (SPEC §6)."""
        _check_name(name)
        frame = self.frame
        if not pycompat.is_optimized(frame):
            frame.f_locals[name] = obj
        elif name in pycompat.frame_local_names(frame.f_code):
            self._write_locals({name: obj}, ())
        elif name in self._declared_globals():
            frame.f_globals[name] = obj
        else:
            self._overlay[name] = obj
        return {"ok": True}

    def inspect(self, handle: str, depth: int = 1, limit: int = 20) -> dict:
        obj = self.lookup_handle(handle)
        for label, number in (("depth", depth), ("limit", limit)):
            if type(number) is not int:
                raise ToolError("ValueError", f"{label} must be an integer, got {number!r}")
        return describe.inspect_object(obj, self.handle, depth=depth, limit=limit)

    def get_frame_code(self, which: str = "active") -> dict:
        if which == "active":
            frame, line = self.frame, self.line
        elif which == "origin":
            if self.origin_frame is None:
                raise ToolError("ValueError", "there is no origin frame: it exists in recovery mode only; "
                                "use frame='active'")
            frame, line = self.origin_frame, self.origin_line
        else:
            raise ToolError("ValueError", f"frame must be 'active' or 'origin', got {which!r}")
        return code_context(frame, line, project_root=self.project_root)

    def frames(self) -> dict:
        out = []
        for frame, line in self._frame_chain():
            scopes = self._scopes() if frame is self.frame else None
            out.append({
                "function": frame.f_code.co_qualname,
                "file": display_path(frame.f_code.co_filename, self.project_root),
                "line": line,
                "active": frame is self.frame,
                "origin": frame is self.origin_frame,
                "locals": describe.frame_objects(frame, handle_of=self.handle, limit=FRAME_LOCALS_LIMIT,
                                                 scopes=scopes),
            })
        return {"frames": out}

    # ---- request content (SPEC §5.1) ----

    def related_objects(self, statement_text: str) -> list[dict]:
        return describe.related_objects(self.frame, statement_text, context_values=self.context_values,
                                        handle_of=self.handle, scopes=self._scopes())

    def frame_objects(self) -> list[dict]:
        return describe.frame_objects(self.frame, context_values=self.context_values, handle_of=self.handle,
                                      scopes=self._scopes())

    def code_context(self) -> dict:
        return code_context(self.frame, self.line, project_root=self.project_root)

    # ---- internals ----

    def _scopes(self) -> list[tuple[str, dict]]:
        scopes = describe.frame_scopes(self.frame)
        if self._overlay:
            scopes.insert(len(scopes) - 1, ("invocation", dict(self._overlay)))
        return scopes

    def _declared_globals(self) -> frozenset[str]:
        if self._frame_globals is None:
            self._frame_globals = pycompat.declared_globals(self.frame.f_code)
        return self._frame_globals

    def _resolve(self, name: str) -> tuple[object, str]:
        frame = self.frame
        if pycompat.is_optimized(frame):
            code = frame.f_code
            if name in pycompat.frame_local_names(code):
                values = pycompat.read_frame_locals(frame)
                if name in values:
                    return values[name], "enclosing" if name in code.co_freevars else "local"
                raise ToolError("UnboundLocalError", f"local variable {name!r} has no value yet at line {self.line}")
            if name in self._overlay:
                return self._overlay[name], "invocation"
        else:
            namespace = frame.f_locals
            if namespace is not frame.f_globals and name in namespace:
                return namespace[name], "local"
        for scope, namespace in (("global", frame.f_globals), ("builtin", frame.f_builtins)):
            value = dict.get(namespace, name, _EMPTY)
            if value is not _EMPTY:
                return value, scope
        raise ToolError("NameError", f"name {name!r} is not defined in the frame, its globals or builtins")

    def _write_locals(self, updates: dict, deletions) -> None:
        try:
            pycompat.write_frame_locals(self.frame, updates, deletions)
        except pycompat.LocalsWriteUnsupported as exc:
            raise ToolError("UnsupportedOperation", str(exc)) from None

    def _run(self, source, mode: str):
        if type(source) is not str:
            raise ToolError("TypeError", f"code must be a string, got {describe.type_label(type(source))}")
        filename = f"<aiython-{'evaluate' if mode == 'eval' else 'execute'}>"
        try:
            compiled = compile(source, filename, mode, dont_inherit=True)
        except SyntaxError as exc:
            raise _syntax_error(exc) from None
        except ValueError as exc:  # e.g. null bytes in the source
            raise ToolError("SyntaxError", str(exc)[:MESSAGE_LIMIT]) from None
        frame = self.frame
        if not pycompat.is_optimized(frame):
            return _call_program(eval, compiled, frame.f_globals, frame.f_locals)
        return self._run_in_closure(source, filename, mode)

    def _run_in_closure(self, source: str, filename: str, mode: str):
        import types

        frame = self.frame
        owned = [n for n in pycompat.frame_local_names(frame.f_code) if n.isidentifier()]
        owned_set = set(owned)
        body, user_globals, deleted = _parse_body(source, filename, mode)
        refused = sorted((deleted & owned_set) - user_globals)
        if refused and not pycompat.CAN_UNBIND_FAST_LOCALS:
            raise ToolError("UnsupportedOperation", pycompat.unbind_refusal(refused))
        owner = _enclosing_class(frame.f_code)
        bound = _bound_names(_compile_scope(body, filename, (), (), owner))
        declared = self._declared_globals()
        to_global = sorted((bound & declared) - user_globals)
        names: dict[str, None] = {}
        for name in [*owned, *self._overlay, *sorted(bound)]:
            if name not in user_globals and name not in declared:
                names.setdefault(name, None)
        scope_code = _compile_scope(body, filename, tuple(names), tuple(to_global), owner)

        values = pycompat.read_frame_locals(frame)
        before = {n: values.get(n, _EMPTY) if n in owned_set else self._overlay.get(n, _EMPTY) for n in names}
        cells = {n: types.CellType() if v is _EMPTY else types.CellType(v) for n, v in before.items()}
        closure = tuple(cells[n] if n in cells else types.CellType() for n in scope_code.co_freevars)
        function = types.FunctionType(scope_code, frame.f_globals, scope_code.co_name, None, closure)
        failure, result = None, None
        try:
            result = _call_program(function)
        except ToolError as exc:
            failure = exc
        finally:
            updates, deletions = {}, []
            for name, cell in cells.items():
                try:
                    new = cell.cell_contents
                except ValueError:
                    new = _EMPTY
                if new is before[name]:
                    continue
                if name in owned_set:
                    if new is _EMPTY:
                        deletions.append(name)
                    else:
                        updates[name] = new
                elif new is _EMPTY:
                    self._overlay.pop(name, None)
                else:
                    self._overlay[name] = new
            if updates or deletions:
                self._write_locals(updates, deletions)
        if failure is not None:
            raise failure
        return result

    def _frame_chain(self) -> list[tuple[object, int]]:
        chain: list[tuple[object, int]] = []
        if self.traceback is not None:
            tb = self.traceback
            while tb is not None:
                chain.append((tb.tb_frame, self.line if tb.tb_frame is self.frame else tb.tb_lineno))
                tb = tb.tb_next
        else:
            # Recovery without a traceback: origin up to the active frame. Syntax mode: the
            # whole stack above the active frame.
            frame = self.origin_frame if self.origin_frame is not None else self.frame
            while frame is not None:
                if frame is self.frame:
                    chain.append((frame, self.line))
                    if self.origin_frame is not None:
                        break
                elif frame is self.origin_frame:
                    chain.append((frame, self.origin_line))
                else:
                    chain.append((frame, frame.f_lineno))
                frame = frame.f_back
            chain.reverse()
            if self.origin_frame is not None and all(f is not self.frame for f, _ in chain):
                chain = [(self.frame, self.line), (self.origin_frame, self.origin_line)]
        keep = [(f, line) for f, line in chain
                if f is self.frame or f is self.origin_frame or self._is_project_file(f.f_code.co_filename)]
        return keep[-FRAMES_LIMIT:]

    def _is_project_file(self, filename: str) -> bool:
        return paths.kind(filename, self.project_root) == paths.PROJECT


def _call_program(function, *args):
    try:
        return function(*args)
    except SystemExit as exc:
        raise ToolError("SystemExit", f"the code tried to end the program (exit status {exc.code!r}); "
                        "tools cannot exit") from None
    except Exception as exc:
        raise program_error(exc) from None


def _parse_body(source: str, filename: str, mode: str):
    """The code's statements (an expression becomes ``return <expr>``), the names its own
    ``global`` statements declare and the names its ``del`` statements unbind (both outside
    nested functions and classes)."""
    import ast

    tree = ast.parse(source, filename, mode)
    if mode == "eval":
        return [ast.copy_location(ast.Return(value=tree.body), tree.body)], set(), set()
    declared: set[str] = set()
    deleted: set[str] = set()
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Global):
            declared.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Del):
            deleted.add(node.id)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
    return tree.body, declared, deleted


def _compile_scope(body: list, filename: str, free: tuple[str, ...], to_global: tuple[str, ...],
                   owner: str | None):
    """Code object of ``def _aiython_scope_(): nonlocal <free>; global <to_global>; <body>``
    nested in a function that owns ``free``, itself inside ``class <owner>:`` when the frame's
    code belongs to a class, so ``self.__private`` and ``__local`` mangle as in the frame's own
    code. Names are identifiers (they come from code objects)."""
    import ast

    pad = "    " if owner else ""
    lines = [f"class {owner}:"] if owner else []
    lines.append(f"{pad}def {_OUTER}():")
    if free:
        lines.append(f"{pad}    " + " = ".join(free) + " = None")
    lines.append(f"{pad}    def {_SCOPE}():")
    if free:
        lines.append(f"{pad}        nonlocal " + ", ".join(free))
    if to_global:
        lines.append(f"{pad}        global " + ", ".join(to_global))
    lines.append(f"{pad}        pass")
    lines.append(f"{pad}    return {_SCOPE}")
    module = ast.parse("\n".join(lines), filename, "exec")
    outer = module.body[0].body[0] if owner else module.body[0]
    inner = outer.body[-2]
    if body:
        inner.body[-1:] = body
    ast.fix_missing_locations(module)
    try:
        code = compile(module, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise _syntax_error(exc) from None
    if owner:
        code = _nested_code(code, owner)
    return _nested_code(_nested_code(code, _OUTER), _SCOPE)


def _enclosing_class(code) -> str | None:
    """The innermost class a function's code is nested in, read from ``co_qualname``
    (``C.m`` and ``C.m.<locals>.helper`` give ``C``; ``f.<locals>.g`` gives None)."""
    parts = code.co_qualname.split(".")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] != "<locals>" and parts[i + 1] != "<locals>":
            return parts[i] if parts[i].isidentifier() else None
    return None


def _nested_code(code, name: str):
    for const in code.co_consts:
        if type(const) is type(code) and const.co_name == name:
            return const
    raise RuntimeError(f"compiled wrapper lacks {name}")


def _bound_names(scope_code) -> set[str]:
    """Names the code binds in its own scope (assignments, imports, defs, walrus targets…)."""
    return set(scope_code.co_varnames) | set(scope_code.co_cellvars)


def code_context(frame, lineno: int, *, project_root: str | None = None) -> dict:
    """Source around ``lineno`` (SPEC §5.1): the enclosing function or class whole if it is at
    most WHOLE_SCOPE_LIMIT characters, else a window of lines around ``lineno`` inside it (at
    module level always a window); never more than CODE_CONTEXT_CAP characters. Read through
    linecache by the code's file name, which shows the original program text."""
    import linecache

    code = frame.f_code
    kind = "module" if code.co_name == "<module>" else ("function" if pycompat.is_optimized(frame) else "class")
    result = {"file": display_path(code.co_filename, project_root), "kind": kind, "line": lineno,
              "start_line": 0, "end_line": 0, "source": "", "complete": False}
    lines = linecache.getlines(code.co_filename, frame.f_globals)
    if not lines:
        result["note"] = "source not available"
        return result
    count = len(lines)
    if kind == "module":
        first, last = 1, count
    else:
        first = max(1, min(code.co_firstlineno, count))
        last = max(first, min(_last_line(code), count))
        text = "".join(lines[first - 1 : last])
        if len(text) <= WHOLE_SCOPE_LIMIT:
            result.update(start_line=first, end_line=last, source=text, complete=True)
            return result
    focus = max(first, min(lineno, last))
    lo, hi = max(first, focus - WINDOW_BEFORE), min(last, focus + WINDOW_AFTER)
    while hi > lo and sum(len(lines[i - 1]) for i in range(lo, hi + 1)) > CODE_CONTEXT_CAP:
        if hi - focus >= focus - lo:
            hi -= 1
        else:
            lo += 1
    text = "".join(lines[lo - 1 : hi])[:CODE_CONTEXT_CAP]
    result.update(start_line=lo, end_line=hi, source=text, complete=(lo, hi) == (first, last))
    return result


def _last_line(code) -> int:
    last = code.co_firstlineno
    for _, end, _, _ in code.co_positions():
        if end is not None and end > last:
            last = end
    for const in code.co_consts:
        if type(const) is type(code):
            last = max(last, _last_line(const))
    return last
