"""Recovery at run time (SPEC §4.2): what an instrumented checkpoint's `except` path calls.

Over 400 lines: eligibility, the frame walk, the pause of mode "recovery", its decisions and the
host's decision source share the Decision and note vocabulary; each part is small.

instrument.py wraps each checkpoint statement in a `try` whose handler calls the
CheckpointRuntime R (bound in builtins): `R.recover(K)` / `await R.arecover(K)` decides and says
whether to run the statement again, `R.failed(K)` / `R.succeeded(K)` report a retry, then
`R.raising(K)` (bare `raise` of the original exception), `R.binding(K)` / `R.value(K)` (store a
value in the target name) and `R.forget(K)` in a `finally`; `R.settle(K)` does it all for
statements that can be neither retried nor bound. The handler binds no name: each call finds its
exception with `sys.exception()` and its frame with `sys._getframe(1)`, and the failure's state
(attempts, the retry's failure, the decision) is kept here by (original exception, frame, K).

A failure is NOT put to the model (the original exception propagates untouched) when:
- it is not eligible: not an `Exception`; aiython's own (`AIError` and subclasses, including
  `TypeContractError`); `concurrent.futures.CancelledError`; an `ExceptionGroup` with an
  ineligible member. Deliberate additions: `StopIteration` / `StopAsyncIteration` (the
  iteration protocol's end signal, not a failure), protocol signals leaving the method that
  gives them (`AttributeError` from `__getattr__`, `__getattribute__` or a property getter: how
  `hasattr`/`getattr(..., default)` learn that an attribute is absent; `IndexError` from
  `__getitem__`: the end of old-style iteration) — the accessing statement may still recover —,
  anything raised in `__del__` (finalizers run at arbitrary points, even inside the bridge), and
  an exception thrown into a suspended generator or coroutine by one of its callers (the failure
  is the caller's, e.g. a `with` body under `contextlib.contextmanager`, not the `yield`'s);
- it already carries a decision (one of this module's notes): an outer checkpoint never asks again;
- a calling frame would see it first: a project frame whose current line is inside a user `try`
  or `with` body (ranges from the plan's `protected_ranges`, else computed from the AST); a
  library frame inside a `try` whose `except` names a class that matches the exception (a
  fallback such as `Mapping.get`; catch-alls like `except Exception` or a bare `except` are
  last-resort handlers and do not count); or a bridge frame other than the runner's (the code
  runs inside a tool call of another pause).

Otherwise a RecoveryPause asks the decision source (the host over the channel; tests use their
own, tests/support.py). `retry` is offered only if the checkpoint allows it and the traceback below the
checkpoint's frame passes through no other project frame (code objects defined inside the
statement itself, such as comprehensions and lambdas, are part of it). At most
MAX_CONSULTATIONS per failing statement execution; after that, and after `reraise`, a failed
invocation (`fail`) or a bridge fault, the ORIGINAL exception propagates with a note saying why
(a RecursionError at full depth leaves no stack to consult: it propagates with a note).
Partial effects are never rolled back.
"""

from __future__ import annotations

import _thread
import ast
import builtins
import linecache
import os
import sys

from . import contracts, paths, pauses, pycompat
from .describe import type_label
from .errors import AIError, UnsupportedAnnotation
from .frameops import Invocation, ToolError, program_error
from .paths import BRIDGE, LIBRARY, PROJECT, display_path

MAX_CONSULTATIONS = 2
_RUNNER_FUNCTION = "run_program"  # runner.py: the program's top; above it nothing is the program's
# An exception of this class leaving a method of this name is how the caller (often C code such
# as hasattr, getattr with a default, or old-style iteration over __getitem__) learns "absent" or
# "exhausted": a protocol signal, recovered (if at all) at the statement that made the access.
_PROTOCOL_SIGNALS = {"__getattr__": AttributeError, "__getattribute__": AttributeError, "__getitem__": IndexError}
_SUSPENDABLE = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR


class Note(str):
    """A note this module added to an exception; its presence marks the exception as decided."""


class Decision:
    """A consultation's outcome: "retry", "complete", "bind" (with `value`) or "propagate"."""

    __slots__ = ("action", "value")

    def __init__(self, action: str, value=None):
        self.action, self.value = action, value


PROPAGATE = Decision("propagate")
DONE = Decision("complete")
RETRY = Decision("retry")


class _Failure:
    """One failing execution of one checkpoint statement in one frame, while its handler runs:
    the original exception, consultations so far, the retry's failure still to decide."""

    __slots__ = ("original", "attempt", "pending", "decision")

    def __init__(self, original):
        self.original, self.attempt, self.pending, self.decision = original, 0, original, PROPAGATE


def eligible(exc) -> bool:
    """SPEC §4.2's eligible exceptions, plus the iteration protocol's signals left out."""
    if not isinstance(exc, Exception) or isinstance(exc, (AIError, StopIteration, StopAsyncIteration)):
        return False
    futures = sys.modules.get("concurrent.futures._base")  # never imported here just to ask
    if futures is not None and isinstance(exc, futures.CancelledError):
        return False
    if isinstance(exc, BaseExceptionGroup):
        return all(eligible(member) for member in exc.exceptions)
    return True


def decided(exc) -> bool:
    try:
        for note in getattr(exc, "__notes__", None) or ():
            if type(note) is Note:
                return True
        return False
    except Exception:  # unreadable notes (or no stack left to read them): never ask twice
        return True


def add_note(exc, text: str) -> None:
    try:
        note = Note("aiython: " + text)
        if note not in (getattr(exc, "__notes__", None) or ()):
            exc.add_note(note)
    except Exception:
        pass


def _describe_exception(exc) -> str:
    return f"{type_label(type(exc))}: {program_error(exc).message}"


class Checkpoint:
    __slots__ = ("id", "filename", "statement", "span", "target", "annotation", "retry_allowed")

    def __init__(self, filename: str, info: dict):
        self.filename = filename
        self.id, self.statement, self.span = info["id"], info["statement"], info["span"]
        self.target, self.annotation = info.get("target"), info.get("annotation")
        self.retry_allowed = bool(info.get("retry_allowed"))


class CheckpointRuntime:
    """Bound in builtins under the name(s) instrument.py chose; one per process."""

    Exception = Exception  # the handler's `except R.Exception`, immune to a rebound `Exception`

    def __init__(self, decisions, *, project_root: str | None = None, context_values: bool = True):
        self.decisions = decisions
        self.project_root = os.path.realpath(project_root) if project_root else None
        self.context_values = context_values
        self.lock = _thread.allocate_lock()  # held by instrument.compile_checkpointed
        self._checkpoints: list[Checkpoint] = []
        self._ranges: dict[str, list] = {}
        self._registered: set[str] = set()  # instrumented here: project code whatever paths says
        self._handlers: dict[str, list] = {}
        # Open failures by (id(original exception), id(frame), checkpoint index): the handler binds
        # no name, so its state lives here from its first call until forget()/settle() ends it.
        self._failures: dict[tuple[int, int, int], _Failure] = {}

    # ---- registration (instrument.py) ----

    @property
    def size(self) -> int:
        return len(self._checkpoints)

    def register(self, filename: str, checkpoints: list[dict], ranges, recover_name: str) -> None:
        """Checkpoints numbered from `size`, the file's try/with body ranges, the builtins name."""
        self._checkpoints.extend(Checkpoint(filename, info) for info in checkpoints)
        self._ranges[filename] = sorted([int(a), int(b)] for a, b in ranges)
        self._registered.add(filename)
        if getattr(builtins, recover_name, None) is not self:
            setattr(builtins, recover_name, self)

    # ---- the handler's calls (instrument.py): `sys.exception()` is the statement's failure ----

    def recover(self, index: int) -> bool:
        """Decide the pending failure of the statement; True: run the statement again."""
        exc, frame = sys.exception(), sys._getframe(1)
        try:
            failure = self._open(index, exc, frame)
            self._consult(failure, self._step(index, failure, frame))
            return failure.decision is RETRY
        finally:
            del frame

    def arecover(self, index: int):
        """recover() in `async def` bodies: the checks run now, a consultation is awaited."""
        exc, frame = sys.exception(), sys._getframe(1)
        try:
            failure = self._open(index, exc, frame)
            step = self._step(index, failure, frame)
        finally:
            del frame
        return self._aconsult(failure, step, lambda: failure.decision is RETRY)

    def settle(self, index: int) -> bool:
        """The whole decision for a statement that can be neither retried nor bound: True: raise."""
        exc, frame = sys.exception(), sys._getframe(1)
        key = (id(exc), id(frame), index)
        try:
            failure = self._open(index, exc, frame)
            self._consult(failure, self._step(index, failure, frame))
            return failure.decision is not DONE
        finally:
            self._failures.pop(key, None)
            del frame

    def asettle(self, index: int):
        exc, frame = sys.exception(), sys._getframe(1)
        key = (id(exc), id(frame), index)
        try:
            failure = self._open(index, exc, frame)
            step = self._step(index, failure, frame)
        finally:
            del frame

        def result():
            self._failures.pop(key, None)
            return failure.decision is not DONE

        return self._aconsult(failure, step, result, lambda: self._failures.pop(key, None))

    def failed(self, index: int) -> None:
        """The retried statement raised `sys.exception()`: decided by the next recover()."""
        failure = self._find(index, sys._getframe(1))
        if failure is not None:
            failure.pending = sys.exception()

    def succeeded(self, index: int) -> None:
        failure = self._find(index, sys._getframe(1))
        if failure is not None:
            failure.decision = DONE

    def raising(self, index: int) -> bool:
        failure = self._find(index, sys._getframe(1))
        return failure is None or failure.decision.action == "propagate"

    def binding(self, index: int) -> bool:
        failure = self._find(index, sys._getframe(1))
        return failure is not None and failure.decision.action == "bind"

    def value(self, index: int):
        return self._find(index, sys._getframe(1)).decision.value

    def forget(self, index: int) -> None:
        """The handler is left (any way: done, raise, return, a generator closed mid-retry)."""
        failure = self._find(index, sys._getframe(1))
        if failure is not None:
            self._failures.pop((id(failure.original), id(sys._getframe(1)), index), None)

    # ---- the decision steps ----

    def _open(self, index, exc, frame) -> _Failure:
        key = (id(exc), id(frame), index)
        failure = self._failures.get(key)
        if failure is None or failure.original is not exc:
            failure = self._failures[key] = _Failure(exc)
        return failure

    def _find(self, index, frame) -> _Failure | None:
        """The open failure of this handler: `sys.exception()` is its original exception, or (in
        the retry's handler, or while a BaseException passes) has it as a `__context__`."""
        exc, hops = sys.exception(), 0
        while exc is not None and hops < 64:
            failure = self._failures.get((id(exc), id(frame), index))
            if failure is not None and failure.original is exc:
                return failure
            exc, hops = exc.__context__, hops + 1
        return None

    def _consult(self, failure, step) -> None:
        if isinstance(step, Decision):
            failure.decision = step
            return
        try:
            failure.decision = self.decisions.consult(step)
        except Exception as fault:  # the bridge's own fault: the program's exception goes on
            failure.decision = _internal(failure.original, fault)

    async def _aconsult(self, failure, step, result, cleanup=None):
        try:
            if isinstance(step, Decision):
                failure.decision = step
            else:
                try:
                    failure.decision = await self.decisions.aconsult(step)
                except Exception as fault:
                    failure.decision = _internal(failure.original, fault)
            return result()
        finally:
            if cleanup is not None:
                cleanup()

    def _step(self, index, failure, frame):
        """A RecoveryPause for the failure to decide now, or the final Decision without one."""
        exc = failure.pending
        if exc is None:
            return failure.decision  # nothing new since the last decision (a retry succeeded)
        failure.pending = None
        try:
            checkpoint = self._checkpoints[index]
            if failure.attempt == 0:
                if not self.may_recover(exc, frame):
                    return PROPAGATE
            elif not eligible(exc) or decided(exc):
                add_note(failure.original, f"not recovered: the retried statement raised {_describe_exception(exc)}")
                return PROPAGATE
            elif failure.attempt >= MAX_CONSULTATIONS:
                add_note(failure.original, f"not recovered: the statement failed again after {MAX_CONSULTATIONS} "
                                           f"consultations ({_describe_exception(exc)})")
                return PROPAGATE
            failure.attempt += 1
            retry_allowed = checkpoint.retry_allowed and not self.through_other_project_frame(frame, exc, checkpoint)
            return RecoveryPause(self, checkpoint, frame, exc, attempt=failure.attempt, original=failure.original,
                                 retry_allowed=retry_allowed)
        except Exception as fault:
            return _internal(failure.original, fault)

    def may_recover(self, exc, frame) -> bool:
        if not eligible(exc) or decided(exc):
            return False
        name = frame.f_code.co_name
        signal = _PROTOCOL_SIGNALS.get(name)
        if name == "__del__" or (signal is not None and isinstance(exc, signal)):
            return False
        if isinstance(exc, AttributeError) and _is_property_getter(frame):
            return False
        if frame.f_code.co_flags & _SUSPENDABLE and thrown_in(frame, exc):
            return False
        return not self.caller_sees_first(frame, exc)

    def caller_sees_first(self, frame, exc) -> bool:
        """Whether a calling frame would see `exc` before the program's top (module docstring)."""
        caller = frame.f_back
        while caller is not None:
            code = caller.f_code
            kind = self.kind(code.co_filename)
            if kind == BRIDGE:
                return code.co_name != _RUNNER_FUNCTION
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

    def kind(self, filename: str) -> str:
        return PROJECT if filename in self._registered else paths.kind(filename, self.project_root)

    def _project_ranges(self, filename, frame) -> list:
        ranges = self._ranges.get(filename)
        if ranges is None:
            from .instrument import protected_ranges

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


def _is_property_getter(frame) -> bool:
    """Whether the frame runs the getter of a property (or cached_property) of its first argument's
    class: an AttributeError from it makes `hasattr` false and `__getattr__` run instead."""
    code = frame.f_code
    if not pycompat.is_optimized(frame) or code.co_argcount != 1:
        return False
    values = pycompat.read_frame_locals(frame)
    if code.co_varnames[0] not in values:
        return False
    for klass in type.__dict__["__mro__"].__get__(type(values[code.co_varnames[0]])):
        attribute = type.__dict__["__dict__"].__get__(klass).get(code.co_name)
        getter = getattr(attribute, "fget", None) if isinstance(attribute, property) else getattr(attribute, "func", None)
        if getattr(getter, "__code__", None) is code:
            return True
    return False


def thrown_in(frame, exc) -> bool:
    """Whether `exc` was thrown into a suspended generator or coroutine (`gen.throw()`, as
    `contextlib.contextmanager` does with a failing `with` body): after this frame's traceback
    entry comes a frame that is one of its callers, so the statement at the `yield` did not fail."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame is not frame:
        tb = tb.tb_next
    if tb is None or tb.tb_next is None:
        return False
    source = tb.tb_next.tb_frame
    caller = frame.f_back
    while caller is not None:
        if caller is source:
            return True
        caller = caller.f_back
    return False


def _internal(original, failure) -> Decision:
    if isinstance(failure, RecursionError):  # e.g. the program's own RecursionError, at full depth
        add_note(original, "not recovered: too little stack left to consult the model")
    else:
        add_note(original, f"recovery failed: internal error in the bridge ({_describe_exception(failure)})")
    return PROPAGATE


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


class RecoveryPause(pauses.Pause):
    """One consultation about one failed checkpoint statement (mode "recovery", terminal `recover`)."""

    mode = "recovery"

    def __init__(self, runtime, checkpoint, frame, exc, *, attempt, original, retry_allowed):
        self.server = None  # set by the decision source
        self.id = pauses.new_pause_id()
        self.checkpoint, self.exception = checkpoint, exc
        self.attempt, self.original, self.retry_allowed = attempt, original, retry_allowed
        self.target = checkpoint.target
        self.info = {"id": checkpoint.id, "span": checkpoint.span, "statement": checkpoint.statement}
        self.invocation = Invocation(frame, traceback=exc.__traceback__, line=checkpoint.span["line"],
                                     project_root=runtime.project_root, context_values=runtime.context_values)
        self.expected, self.schema = _expected_type(checkpoint, frame)

    def request(self) -> dict:
        checkpoint, inv, exc = self.checkpoint, self.invocation, self.exception
        frame, span = inv.frame, checkpoint.span
        root = inv.project_root
        recovery = {
            "exception_type": type_label(type(exc)),
            "message": program_error(exc).message,
            "origin": {"file": display_path((inv.origin_frame or frame).f_code.co_filename, root),
                       "line": inv.origin_line or span["line"]},
            "attempt": self.attempt,
            "retry_allowed": self.retry_allowed,
            "target": self.target,
        }
        if inv.origin_frame is not None and inv.origin_frame is not frame:
            recovery["origin_context"] = inv.get_frame_code("origin")
        return {
            "mode": "recovery",
            "block_id": checkpoint.id,
            "statement": checkpoint.statement,
            "location": {"file": display_path(frame.f_code.co_filename, root), **span,
                         "function": frame.f_code.co_qualname if pycompat.is_optimized(frame) else None},
            "target": self.target,
            "output_type": contracts.type_repr(self.expected) if self.expected is not pauses._NO_TYPE else None,
            "output_schema": self.schema,
            "requires_result": False,
            "code_context": inv.code_context(),
            "related_objects": inv.related_objects(checkpoint.statement),
            "frame_objects": inv.frame_objects(),
            "hints": {"prompts": []},
            "recovery": recovery,
        }

    def _run(self, op, args):
        if op == "recover":
            return True, self._decide(args), {"ok": True}
        if op == "fail":
            add_note(self.original, "recovery failed: " + str(args.get("reason") or "the model invocation failed"))
            return True, PROPAGATE, {"ok": True}
        if op == "finish":
            raise ToolError("UnknownOperation", "finish ends AI blocks; end a recovery with recover "
                                                "(action complete, retry or reraise)")
        return super()._run(op, args)

    def _decide(self, args) -> Decision:
        action = args.get("action")
        outcome = args.get("outcome")
        if isinstance(outcome, dict) and outcome.get("kind") == "none":
            outcome = None
        if action not in ("complete", "retry", "reraise"):
            raise ToolError("ValueError", f'action must be "complete", "retry" or "reraise", got {action!r}')
        if outcome is not None and action != "complete":
            raise ToolError("ValueError", f'{action} takes no outcome; only complete does')
        if action == "retry":
            if not self.retry_allowed:
                raise ToolError("RetryNotAllowed", self._retry_refusal())
            return RETRY
        if action == "reraise":
            if self.attempt > 1:
                add_note(self.original, f"after a retry the statement failed with {_describe_exception(self.exception)}")
            explanation = args.get("explanation")
            add_note(self.original, "not recovered: " + (explanation if isinstance(explanation, str) and explanation
                                                         else "the model re-raised the exception"))
            return PROPAGATE
        if outcome is None:
            return DONE
        if self.target is None:
            raise ToolError("ValueError", "this checkpoint's statement does not assign one name, so complete "
                                          "takes no outcome; omit it")
        if outcome.get("kind") == "error":
            raise ToolError("ValueError", 'recover cannot use outcome kind "error"; use action "reraise"')
        return Decision("bind", self._outcome_value(args))

    def _retry_refusal(self) -> str:
        if not self.checkpoint.retry_allowed:
            return ("retry is not allowed: this checkpoint is a compound statement; use complete or reraise")
        return ("retry is not allowed: the traceback passes through another project function, whose effects "
                "would run again; use complete or reraise")


def _expected_type(checkpoint, frame):
    """The target's type and its JSON Schema: the plan's annotation, else a module or class
    namespace's `__annotations__` entry; (no type, None) when there is none or it is unsupported."""
    target = checkpoint.target
    if not target:
        return pauses._NO_TYPE, None
    text, tp = checkpoint.annotation, pauses._NO_TYPE
    try:
        if text:
            tp = contracts.resolve_annotation(text, frame.f_globals, frame.f_locals)
        elif not pycompat.is_optimized(frame):
            annotations = frame.f_locals.get("__annotations__") if type(frame.f_locals) is dict else None
            declared = annotations.get(target) if type(annotations) is dict else None
            if isinstance(declared, str):
                tp = contracts.resolve_annotation(declared, frame.f_globals, frame.f_locals)
            elif declared is not None and contracts.is_supported(declared):
                tp = declared
        if tp is pauses._NO_TYPE:
            return tp, None
        return tp, contracts.json_schema(tp, annotation=text)
    except UnsupportedAnnotation:
        return pauses._NO_TYPE, None


# ---- decision sources -------------------------------------------------------------------------

class HostDecisions:
    """The host runs the model loop; the pause is served on the failing thread or event loop."""

    def __init__(self, server):
        self.server = server
        if server.pause_router is None:
            server.pause_router = lambda message: pauses.route(server, message)

    def consult(self, pause):
        pause.server = self.server
        return pauses.serve(pause)

    async def aconsult(self, pause):
        pause.server = self.server
        return await pauses.serve_async(pause)


_runtime: CheckpointRuntime | None = None


def runtime_for(server, options: dict) -> CheckpointRuntime:
    """The process's CheckpointRuntime, answering through the host."""
    global _runtime
    if _runtime is None:
        _runtime = CheckpointRuntime(HostDecisions(server), project_root=options.get("project_root"),
                                     context_values=options.get("context_values", True))
    return _runtime
