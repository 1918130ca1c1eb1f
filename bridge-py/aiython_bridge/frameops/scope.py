"""Running the model's code in a paused frame (`evaluate` / `execute`, SPEC §5.2), and writing back.

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
"""

from __future__ import annotations

from .. import describe, pycompat
from .tool_error import MESSAGE_LIMIT, ToolError, call_program, syntax_error

__all__ = ["run_code", "write_locals"]

_EMPTY = object()
_OUTER = "_aiython_outer_"
_SCOPE = "_aiython_scope_"


def run_code(frame, source, mode: str, *, overlay: dict, declared_globals):
    """The value of ``source`` compiled in ``mode`` ("eval" or "exec") and run in ``frame``.
    ``overlay`` holds the invocation's new names and is updated in place; ``declared_globals()``
    gives the names the frame's code declares ``global``."""
    if type(source) is not str:
        raise ToolError("TypeError", f"code must be a string, got {describe.type_label(type(source))}")
    filename = f"<aiython-{'evaluate' if mode == 'eval' else 'execute'}>"
    try:
        compiled = compile(source, filename, mode, dont_inherit=True)
    except SyntaxError as exc:
        raise syntax_error(exc) from None
    except ValueError as exc:  # e.g. null bytes in the source
        raise ToolError("SyntaxError", str(exc)[:MESSAGE_LIMIT]) from None
    if not pycompat.is_optimized(frame):
        return call_program(eval, compiled, frame.f_globals, frame.f_locals)
    return _run_in_closure(frame, source, filename, mode, overlay, declared_globals)


def _run_in_closure(frame, source: str, filename: str, mode: str, overlay: dict, declared_globals):
    import types

    owned = [n for n in pycompat.frame_local_names(frame.f_code) if n.isidentifier()]
    owned_set = set(owned)
    body, user_globals, deleted = _parse_body(source, filename, mode)
    refused = sorted((deleted & owned_set) - user_globals)
    if refused and not pycompat.CAN_UNBIND_FAST_LOCALS:
        raise ToolError("UnsupportedOperation", pycompat.unbind_refusal(refused))
    owner = _enclosing_class(frame.f_code)
    bound = _bound_names(_compile_scope(body, filename, (), (), owner))
    declared = declared_globals()
    to_global = sorted((bound & declared) - user_globals)
    names: dict[str, None] = {}
    for name in [*owned, *overlay, *sorted(bound)]:
        if name not in user_globals and name not in declared:
            names.setdefault(name, None)
    scope_code = _compile_scope(body, filename, tuple(names), tuple(to_global), owner)

    values = pycompat.read_frame_locals(frame)
    before = {n: values.get(n, _EMPTY) if n in owned_set else overlay.get(n, _EMPTY) for n in names}
    cells = {n: types.CellType() if v is _EMPTY else types.CellType(v) for n, v in before.items()}
    closure = tuple(cells[n] if n in cells else types.CellType() for n in scope_code.co_freevars)
    function = types.FunctionType(scope_code, frame.f_globals, scope_code.co_name, None, closure)
    failure, result = None, None
    try:
        result = call_program(function)
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
                overlay.pop(name, None)
            else:
                overlay[name] = new
        if updates or deletions:
            write_locals(frame, updates, deletions)
    if failure is not None:
        raise failure
    return result


def write_locals(frame, updates: dict, deletions) -> None:
    """Write changed locals back into ``frame`` (pycompat knows how on each version)."""
    try:
        pycompat.write_frame_locals(frame, updates, deletions)
    except pycompat.LocalsWriteUnsupported as exc:
        raise ToolError("UnsupportedOperation", str(exc)) from None


def _parse_body(source: str, filename: str, mode: str):
    """The code's statements (an expression becomes ``return <expr>``), the names its own
    ``global`` statements declare and the names its ``del`` statements unbind (both outside
    nested functions and classes)."""
    import ast

    tree = pycompat.parse_ast(source, filename, mode)
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
    module = pycompat.parse_ast("\n".join(lines), filename, "exec")
    outer = module.body[0].body[0] if owner else module.body[0]
    inner = outer.body[-2]
    if body:
        inner.body[-1:] = body
    ast.fix_missing_locations(module)
    try:
        code = compile(module, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise syntax_error(exc) from None
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
