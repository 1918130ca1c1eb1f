"""CheckpointRuntime (SPEC §4.2): the object an instrumented checkpoint's handler calls.

instrument.py wraps each checkpoint statement in a `try` whose handler calls the
CheckpointRuntime R (bound in builtins): `R.recover(K)` / `await R.arecover(K)` decides and says
whether to run the statement again, `R.failed(K)` / `R.succeeded(K)` report a retry, then
`R.raising(K)` (bare `raise` of the original exception), `R.binding(K)` / `R.value(K)` (store a
value in the target name) and `R.forget(K)` in a `finally`; `R.settle(K)` does it all for
statements that can be neither retried nor bound. The handler binds no name: each call finds its
exception with `sys.exception()` and its frame with `sys._getframe(1)`, and the failure's state
(attempts, the retry's failure, the decision) is kept here by (original exception, frame, K).

Each step of a decision: the first failure must be recoverable (eligibility.py) and seen by no
caller first (callers.py); a retry's failure must be eligible and undecided; then a RecoveryPause
goes to the decision source, at most MAX_CONSULTATIONS times per failing statement execution.
`retry` is offered only if the checkpoint allows it and callers.py finds no other project frame
in the traceback. A fault of the bridge (a RecursionError at full depth leaves no stack to
consult) lets the original exception propagate with a note.
"""

from __future__ import annotations

import _thread
import builtins
import os
import sys

from .callers import Callers
from .decision import DONE, PROPAGATE, RETRY, Decision, add_note, decided, describe_exception, internal
from .eligibility import eligible, recoverable
from .pause import RecoveryPause

MAX_CONSULTATIONS = 2


class _Failure:
    """One failing execution of one checkpoint statement in one frame, while its handler runs:
    the original exception, consultations so far, the retry's failure still to decide."""

    __slots__ = ("original", "attempt", "pending", "decision")

    def __init__(self, original):
        self.original, self.attempt, self.pending, self.decision = original, 0, original, PROPAGATE


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
        self.callers = Callers(self.project_root)
        self._checkpoints: list[Checkpoint] = []
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
        self.callers.register(filename, ranges)
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
            failure.decision = internal(failure.original, fault)

    async def _aconsult(self, failure, step, result, cleanup=None):
        try:
            if isinstance(step, Decision):
                failure.decision = step
            else:
                try:
                    failure.decision = await self.decisions.aconsult(step)
                except Exception as fault:
                    failure.decision = internal(failure.original, fault)
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
                add_note(failure.original, f"not recovered: the retried statement raised {describe_exception(exc)}")
                return PROPAGATE
            elif failure.attempt >= MAX_CONSULTATIONS:
                add_note(failure.original, f"not recovered: the statement failed again after {MAX_CONSULTATIONS} "
                                           f"consultations ({describe_exception(exc)})")
                return PROPAGATE
            failure.attempt += 1
            retry_allowed = checkpoint.retry_allowed and not self.callers.through_other_project_frame(
                frame, exc, checkpoint)
            return RecoveryPause(self, checkpoint, frame, exc, attempt=failure.attempt, original=failure.original,
                                 retry_allowed=retry_allowed)
        except Exception as fault:
            return internal(failure.original, fault)

    def may_recover(self, exc, frame) -> bool:
        return recoverable(exc, frame) and not self.callers.caller_sees_first(frame, exc)
