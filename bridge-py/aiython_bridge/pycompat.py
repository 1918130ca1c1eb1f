"""Every Python-version gate of the bridge lives here, and nowhere else.

Callers ask questions ("read this frame's locals", "write these locals back") and never test
``sys.version_info`` themselves. Supported: CPython 3.11, 3.12, 3.13 and later.

Frame locals of a running function (an *optimized* frame, CO_OPTIMIZED):
- 3.11 / 3.12: ``frame.f_locals`` is a dict snapshot that CPython refreshes from the fast
  locals on every access; writes to the dict are lost unless ``PyFrame_LocalsToFast`` copies
  them back (what debuggers do). That C function is a no-op unless ``f_locals`` was read just
  before, so a write always reads ``f_locals`` first and flushes immediately after.
- 3.13+: PEP 667 makes ``frame.f_locals`` a write-through proxy (``FrameLocalsProxy``).
  Assigning through it reaches fast locals and cells; it cannot unbind a variable at all.
- Unbinding (``del x``) a function's local works on 3.11 only (see CAN_UNBIND_FAST_LOCALS).
Module and class frames (not optimized) have a real namespace dict on every version.
"""

from __future__ import annotations

import sys

from aiython_bridge import modules

__all__ = [
    "AST_BUILDER_SHARED", "BYTECODE_CHECKPOINTS", "CAN_UNBIND_FAST_LOCALS", "CLEANUP_AT_STATEMENT", "CO_OPTIMIZED",
    "HAS_LAST_EXC", "LocalsWriteUnsupported", "PEP667_FRAME_LOCALS", "console_base",
    "declared_globals", "frame_local_names", "is_optimized", "parse_ast", "read_frame_locals",
    "unbind_refusal", "write_frame_locals",
]

TYPE_CHECKING = False  # typing is not imported at run time: the bridge must import cheaply
if TYPE_CHECKING:
    from typing import Iterable, Mapping

PEP667_FRAME_LOCALS = sys.version_info >= (3, 13)
# 3.11's PyFrame_LocalsToFast(frame, 1) unbinds a deleted local; 3.12's binds None instead and
# prints a RuntimeWarning; 3.13's proxy refuses. Only 3.11 can honour ``del`` of a local.
CAN_UNBIND_FAST_LOCALS = sys.version_info < (3, 12)

CO_OPTIMIZED = 0x0001

# 3.11's AST builder counts its recursion in the interpreter's AST state, not the thread's
# (python/cpython#106905 and the change it names): two threads building an AST at once (a garbage
# collection in the middle of one can switch threads) make one of them fail with "SystemError: AST
# constructor recursion depth mismatch". The bridge's own parses take turns there (a reentrant
# lock: a finalizer that ends up parsing on the same thread must not deadlock).
AST_BUILDER_SHARED = sys.version_info < (3, 12)


def parse_ast(source, filename="<unknown>", mode="exec"):
    """ast.parse, never at the same time as another thread's parse by the bridge on 3.11
    (syntax_tree.parse: ast.py itself is not imported for it)."""
    ast = modules.load("aiython_bridge.preparation.syntax_tree")
    if not AST_BUILDER_SHARED:
        return ast.parse(source, filename, mode)
    with _AST_LOCK:
        return ast.parse(source, filename, mode)


if AST_BUILDER_SHARED:
    import _thread

    _AST_LOCK = _thread.RLock()


# Checkpoint handlers added to the plain code object at the bytecode level (recovery/
# bytecode/instrument.py) rather than compiled from an instrumented AST: written for 3.11's
# bytecode, exception table and location table; every other version takes the AST path.
BYTECODE_CHECKPOINTS = sys.version_info[:2] == (3, 11)
# 3.12+ reports an exception leaving a frame (sys.monitoring's PY_UNWIND) at the instruction that
# raised it last, and a line event only where the line changes: a checkpoint handler's cleanup
# carries the statement's line (recovery/handler_lines.py). 3.11 reports a line event on any
# backward jump, which entering a cleanup laid out before the `raise` is: there it has none.
CLEANUP_AT_STATEMENT = sys.version_info >= (3, 12)


class LocalsWriteUnsupported(Exception):
    """The running interpreter cannot perform this write on a frame's locals."""


def is_optimized(frame) -> bool:
    """True for function-like frames whose locals live in fast slots and cells."""
    return bool(frame.f_code.co_flags & CO_OPTIMIZED)


def frame_local_names(code) -> tuple[str, ...]:
    """Names the code object keeps as locals, cells or free variables, in slot order."""
    seen: dict[str, None] = {}
    for name in code.co_varnames + code.co_cellvars + code.co_freevars:
        seen.setdefault(name, None)
    return tuple(seen)


def read_frame_locals(frame) -> dict[str, object]:
    """A fresh dict of the bound locals, cells and free variables of an optimized frame.

    Names that CPython itself adds to ``f_locals`` but the code does not own (a debugger's
    leftovers) are dropped, so the result is the same on every version.
    """
    owned = frame_local_names(frame.f_code)
    snapshot = frame.f_locals
    result: dict[str, object] = {}
    for name in owned:
        try:
            result[name] = snapshot[name]
        except KeyError:
            continue
    return result


def write_frame_locals(frame, updates: Mapping[str, object], deletions: Iterable[str] = ()) -> None:
    """Bind (and, on 3.11 only, unbind) fast locals, cells and free variables of an optimized
    frame. Where unbinding is impossible the updates are still made, then
    LocalsWriteUnsupported is raised naming the deletions."""
    deletions = tuple(deletions)
    if PEP667_FRAME_LOCALS:
        proxy = frame.f_locals
        for name, value in updates.items():
            proxy[name] = value
    elif updates or (deletions and CAN_UNBIND_FAST_LOCALS):
        _locals_to_fast_legacy(frame, updates, deletions if CAN_UNBIND_FAST_LOCALS else ())
    if deletions and not CAN_UNBIND_FAST_LOCALS:
        raise LocalsWriteUnsupported(unbind_refusal(deletions))


def unbind_refusal(names: Iterable[str]) -> str:
    """The message for a refused ``del`` of a running function's locals."""
    return "cannot unbind local variable(s) %s of a running function on Python %d.%d; bind them to None instead" % (
        ", ".join(repr(n) for n in names), sys.version_info[0], sys.version_info[1])


def _locals_to_fast_legacy(frame, updates: Mapping[str, object], deletions: tuple[str, ...]) -> None:
    # Reading f_locals refreshes the snapshot from the fast slots and arms LocalsToFast; nothing
    # may read f_locals again before the flush, or the edits below would be overwritten.
    snapshot = frame.f_locals
    snapshot.update(updates)
    for name in deletions:
        snapshot.pop(name, None)
    # clear=1 unbinds every owned name missing from the snapshot; the snapshot was just
    # refreshed, so only the deleted names (and already unbound ones) are missing.
    _pyframe_locals_to_fast()(frame, 1 if deletions else 0)


_LOCALS_TO_FAST = None


def _pyframe_locals_to_fast():
    global _LOCALS_TO_FAST
    if _LOCALS_TO_FAST is None:
        import ctypes  # deferred: only needed for a write-back on 3.11 / 3.12

        fn = ctypes.pythonapi.PyFrame_LocalsToFast
        fn.argtypes = [ctypes.py_object, ctypes.c_int]
        fn.restype = None
        _LOCALS_TO_FAST = fn
    return _LOCALS_TO_FAST


def declared_globals(code) -> frozenset[str]:
    """Names the code assigns or deletes through a ``global`` declaration.

    Read from the bytecode (STORE_GLOBAL / DELETE_GLOBAL index ``co_names`` on 3.11–3.13). A
    ``global x`` that the function never assigns leaves no trace in bytecode and is not found.
    """
    import opcode  # deferred, small; avoids importing dis

    wanted = {opcode.opmap["STORE_GLOBAL"], opcode.opmap["DELETE_GLOBAL"]}
    extended = opcode.opmap["EXTENDED_ARG"]
    raw = code.co_code
    names = code.co_names
    found = set()
    arg = 0
    for i in range(0, len(raw) - 1, 2):
        op = raw[i]
        arg = (arg << 8) | raw[i + 1]
        if op == extended:
            continue
        if op in wanted and arg < len(names):
            found.add(names[arg])
        arg = 0
    return frozenset(found)



# -- the console (SPEC §2) ------------------------------------------------------------------------
# 3.12 added sys.last_exc beside sys.last_type/value/traceback. 3.13's console on a terminal is
# pyrepl (_pyrepl), unless PYTHON_BASIC_REPL is set or pyrepl cannot drive the terminal; its
# console class shows errors through `_showtraceback`, which code.InteractiveConsole has since.
HAS_LAST_EXC = sys.version_info >= (3, 12)


def console_base():
    """(console base class, runner) of the console CPython would start here; runner None: the
    basic line-by-line loop."""
    import code
    import os

    if sys.version_info >= (3, 13) and not os.environ.get("PYTHON_BASIC_REPL") and os.isatty(0):
        try:
            from _pyrepl.main import CAN_USE_PYREPL
            if CAN_USE_PYREPL:
                from _pyrepl.console import InteractiveColoredConsole
                from _pyrepl.simple_interact import run_multiline_interactive_console
                return InteractiveColoredConsole, run_multiline_interactive_console
        except ImportError:
            pass
    return code.InteractiveConsole, None
