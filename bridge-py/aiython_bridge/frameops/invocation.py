"""Invocation (SPEC §5.2): the state of one AI invocation against one paused frame, and its tools.

One ``Invocation`` holds the handle table and the values of earlier calls by result id
(handles.py), and an overlay of names that
``execute`` created in a function frame (scope.py runs the code and keeps the overlay). Threading
and the wire belong to the runner; every method here is a plain call that returns a JSON-able dict
or raises ``ToolError`` (the tool result ``{"status":"error","error","message"}``). The frame
tools (``frames``, ``get_frame_code``) are frame_listing.py's.
"""

from __future__ import annotations

from .. import contracts, describe, paths, pycompat
from ..errors import TypeContractError
from .context import code_context
from .frame_listing import FrameListing
from .handles import Handles
from .interrupt import ToolInterrupted
from .scope import run_code, write_locals
from .tool_error import ToolError
from .typed_names import TypedNames, source_globals

__all__ = ["Invocation"]

_EMPTY = object()


def _check_name(name) -> str:
    if type(name) is not str or not name.isidentifier():
        raise ToolError("ValueError", f"name must be a Python identifier, got {name!r}")
    return name


class Invocation(Handles, FrameListing):
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
        self.project_root = paths.real_path(project_root) if project_root else None
        self.origin_frame = origin_frame
        self.origin_line = origin_frame.f_lineno if origin_frame is not None else None
        tb = traceback
        while tb is not None:
            # The origin is the deepest project frame of the traceback (or the given one).
            matches = tb.tb_frame is origin_frame if origin_frame is not None else (
                tb.tb_frame is frame or self.is_project_file(tb.tb_frame.f_code.co_filename))
            if matches:
                self.origin_frame, self.origin_line = tb.tb_frame, tb.tb_lineno
            tb = tb.tb_next
        self.context_values = context_values
        super().__init__()
        self._overlay: dict[str, object] = {}
        self._frame_globals: frozenset[str] | None = None
        self._typed_names: TypedNames | None = None

    def close(self) -> None:
        """Drop every reference the invocation holds (frames, handles, values)."""
        self.forget_handles()
        self._overlay.clear()
        self._typed_names = None
        self.frame = self.origin_frame = self.traceback = None

    # ---- tools ----

    def evaluate(self, code: str, result_id: str | None = None) -> dict:
        value = self._run_checked(code, "eval", "evaluate")
        if result_id is not None:
            self.remember(result_id, value)
        return self.descriptor(value)

    def execute(self, code: str) -> dict:
        self._run_checked(code, "exec", "execute")
        return {"ok": True}

    def get_binding(self, name: str, result_id: str | None = None) -> dict:
        value, scope = self._resolve(_check_name(name))
        if result_id is not None:
            self.remember(result_id, value)
        return {**self.descriptor(value), "scope": scope}

    def get_binding_value(self, name: str):
        """The object bound to ``name``, resolved as ``get_binding`` resolves it."""
        return self._resolve(_check_name(name))[0]

    def set_binding(self, name: str, obj) -> dict:
        """Bind ``obj`` itself (identity kept), if it satisfies the name's type (SPEC §6)."""
        _check_name(name)
        expected = self.typed_names().expected(name)
        if expected is not None:
            try:
                contracts.check_object(obj, expected, name)
            except TypeContractError as exc:
                raise ToolError("TypeContractError", f"{exc}; {name} keeps its value") from None
        frame = self.frame
        if not pycompat.is_optimized(frame):
            frame.f_locals[name] = obj
        elif name in pycompat.frame_local_names(frame.f_code):
            write_locals(frame, {name: obj}, ())
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

    # ---- request content (SPEC §5.1) ----

    def request_objects(self, statement_text: str) -> tuple[list[dict], list[dict]]:
        """related_objects and frame_objects of a pause's request (a block's or a recovery's),
        from one reading of the frame's scopes: frame_objects without what related_objects
        describes, and without modules, functions, classes and typing forms (the code context
        shows where they come from), so requests stay small (SPEC §12)."""
        scopes = self.lookup_scopes()
        related = describe.related_objects(self.frame, statement_text, context_values=self.context_values,
                                           handle_of=self.handle, scopes=scopes)
        named = {entry["name"] for entry in related}
        return related, describe.frame_objects(
            self.frame, context_values=self.context_values, handle_of=self.handle, scopes=scopes,
            leave_out=lambda name, value: name in named or describe.known_from_code(value))

    def code_context(self) -> dict:
        return code_context(self.frame, self.line, project_root=self.project_root)

    def lookup_scopes(self) -> list[tuple[str, dict]]:
        """The frame's scopes in lookup order (describe's `scopes`), with the names set_binding
        gave the invocation itself (neither the frame's locals nor its globals) just before the
        globals; frame_listing.py's `frames` reads them too."""
        scopes = describe.frame_scopes(self.frame)
        if self._overlay:
            scopes.insert(len(scopes) - 1, ("invocation", dict(self._overlay)))
        return scopes

    # ---- internals ----

    def _declared_globals(self) -> frozenset[str]:
        """Names the frame's function declares `global`: those it assigns (its bytecode) and those
        it only reads (its source), so `x = 5` reaches the module as it would in the function."""
        if self._frame_globals is None:
            self._frame_globals = pycompat.declared_globals(self.frame.f_code) | source_globals(self.frame)
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

    def check_typed_names_before_end(self) -> None:
        """A block or a recovery may not end while a typed name holds a value an op of this
        invocation changed in place to a wrong one (a ToolError naming each)."""
        if self._typed_names is None:
            return
        problems = self._typed_names.still_spoiled()
        if problems:
            raise ToolError("TypeContractError", "typed names still hold values of the wrong type after a change in place: "
                            + "; ".join(problems) + "; put them right first (or end the block with an error outcome)")

    def typed_names(self) -> TypedNames:
        if self._typed_names is None:
            self._typed_names = TypedNames(self.frame)
        return self._typed_names

    def _run_checked(self, source, mode: str, tool: str):
        """_run, then typed names the code rebound to wrong-typed values or deleted are put back,
        and those it changed in place to wrong values are reported (SPEC §6, typed_names.py)."""
        typed = self.typed_names()
        before = typed.snapshot() if typed else None
        held = typed.mutable_and_valid(before) if before is not None else frozenset()
        failure = value = None
        try:
            value = self._run(source, mode)
        except ToolError as exc:
            failure = exc
        except ToolInterrupted:  # cut short (SPEC §9): its typed names are put back all the same
            if before is not None:
                typed.restore_violations(before, held)
            raise
        problems = typed.restore_violations(before, held) if before is not None else []
        if problems:
            also = f" (the code also raised {failure.error_type}: {failure.message})" if failure is not None else ""
            what = "a typed name with a value" if len(problems) == 1 else "typed names with values"
            raise ToolError("TypeContractError", f"{tool} left {what} of the wrong type: " + "; ".join(problems) + also)
        if failure is not None:
            raise failure
        return value

    def _run(self, source, mode: str):
        return run_code(self.frame, source, mode, overlay=self._overlay, declared_globals=self._declared_globals)
