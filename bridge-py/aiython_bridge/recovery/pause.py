"""RecoveryPause (SPEC §4.2, §5.2 `recover`): one consultation about one failed checkpoint statement.

A pause of mode "recovery" served by the same machinery as AI blocks (pauses/pause.py): its
request adds the `recovery` section (exception, origin, the line of this statement's frame the
failure passed, attempt, whether retry is allowed, and for a compound statement what `complete`
would skip: completion.py). The model ends it with `recover` (complete, with or without an
outcome, retry or reraise), which the bridge checks and keeps without resuming: the host prints
what the decision changes (SPEC §4.2: recovery is never silent) and then sends `resume`, the
terminal op, so the notice is on the terminal before the program writes again. The host's `fail`
ends it too. The target's expected type is the plan's annotation, else a module or class namespace's
`__annotations__` entry.
"""

from __future__ import annotations

from .. import contracts, pycompat
from ..describe import type_label
from ..errors import UnsupportedAnnotation
from ..frameops import Invocation, ToolError, program_error
from ..paths import display_path
from ..pauses.ops import NO_TYPE, failure_error
from ..pauses.pause import Pause, new_pause_id
from .completion import skipped_by_complete
from .decision import DONE, PROPAGATE, RETRY, Decision, add_note, describe_exception

__all__ = ["RecoveryPause"]


class RecoveryPause(Pause):
    """One consultation about one failed checkpoint statement (mode "recovery", terminal `recover`)."""

    mode = "recovery"

    def __init__(self, runtime, checkpoint, frame, exc, *, attempt, original, retry_allowed):
        self.server = None  # set by the decision source
        self.id = new_pause_id()
        self.checkpoint, self.exception = checkpoint, exc
        self.attempt, self.original, self.retry_allowed = attempt, original, retry_allowed
        self.target = checkpoint.target
        self.info = {"id": checkpoint.id, "span": checkpoint.span, "statement": checkpoint.statement}
        self.invocation = Invocation(frame, traceback=exc.__traceback__, line=checkpoint.span["line"],
                                     project_root=runtime.project_root, context_values=runtime.context_values)
        self.expected, self.schema = _expected_type(checkpoint, frame)
        self.line = _line_in(frame, exc.__traceback__, checkpoint.span["line"])
        self.decided = None  # the Decision of an accepted `recover`, until `resume`

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
            "line": self.line,
        }
        if checkpoint.compound:
            skips = skipped_by_complete(checkpoint.statement, span["line"], self.line)
            if skips:
                recovery["complete_skips"] = skips
        if inv.origin_frame is not None and inv.origin_frame is not frame:
            recovery["origin_context"] = inv.get_frame_code("origin")
        related, frame_objects = inv.request_objects(checkpoint.statement)
        return {
            "mode": "recovery",
            "block_id": checkpoint.id,
            "statement": checkpoint.statement,
            "location": {"file": display_path(frame.f_code.co_filename, root), **span,
                         "function": frame.f_code.co_qualname if pycompat.is_optimized(frame) else None},
            "target": self.target,
            "output_type": contracts.type_repr(self.expected) if self.expected is not NO_TYPE else None,
            "output_schema": self.schema,
            "requires_result": False,
            "code_context": inv.code_context(),
            "related_objects": related,
            "frame_objects": frame_objects,
            "hints": {"prompts": []},
            "recovery": recovery,
        }

    def run_op(self, op, args):
        if op == "recover":
            if self.decided is not None:
                raise ToolError("ValueError", "this recovery is already decided")
            self.decided = self._decide(args)
            return False, None, {"ok": True}
        if op == "resume":
            if self.decided is None:
                raise ToolError("ValueError", "resume follows an accepted recover")
            return True, self.decided, {"ok": True}
        if op == "fail":
            if args.get("budget"):
                # A budget refused the consultation's request (SPEC §13): AIBudgetError at this
                # statement, raised while the original exception is handled (its context).
                return True, Decision("raise", failure_error(args)), {"ok": True}
            # The invocation failed (model unreachable, invalid answers…): the program gets its
            # exception exactly as under python3; the reason is in --stats, --trace and the journal.
            return True, PROPAGATE, {"ok": True}
        if op == "finish":
            raise ToolError("UnknownOperation", "finish ends AI blocks; end a recovery with recover "
                                                "(action complete, retry or reraise)")
        return super().run_op(op, args)

    def _decide(self, args) -> Decision:
        action = args.get("action")
        outcome = args.get("outcome")
        if isinstance(outcome, dict) and outcome.get("kind") == "none":
            outcome = None
        if action not in ("complete", "retry", "reraise"):
            raise ToolError("ValueError", f'action must be "complete", "retry" or "reraise", got {action!r}')
        if outcome is not None and action != "complete":
            raise ToolError("ValueError", f'{action} takes no outcome; only complete does')
        if action != "reraise":
            self.invocation.check_typed_names_before_end()
        if action == "retry":
            if not self.retry_allowed:
                raise ToolError("RetryNotAllowed", self._retry_refusal())
            return RETRY
        if action == "reraise":
            if self.attempt > 1:
                add_note(self.original, f"after a retry the statement failed with {describe_exception(self.exception)}")
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
        return Decision("bind", self.outcome_value(args))

    def _retry_refusal(self) -> str:
        if not self.checkpoint.retry_allowed:
            return ("retry is not allowed: this checkpoint is a compound statement; use complete or reraise")
        return ("retry is not allowed: the traceback passes through another project function, whose effects "
                "would run again; use complete or reraise")


def _line_in(frame, traceback, default: int) -> int:
    """The line of `frame` the exception passed (inside a compound statement's body, the body's
    line), from its traceback."""
    while traceback is not None:
        if traceback.tb_frame is frame:
            return traceback.tb_lineno
        traceback = traceback.tb_next
    return default


def _expected_type(checkpoint, frame):
    """The target's type and its JSON Schema: the plan's annotation, else a module or class
    namespace's `__annotations__` entry; (no type, None) when there is none or it is unsupported."""
    target = checkpoint.target
    if not target:
        return NO_TYPE, None
    text, tp = checkpoint.annotation, NO_TYPE
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
        if tp is NO_TYPE:
            return tp, None
        return tp, contracts.json_schema(tp, annotation=text)
    except UnsupportedAnnotation:
        return NO_TYPE, None
