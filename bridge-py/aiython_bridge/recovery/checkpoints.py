"""The checkpoint runtime (SPEC §4.2): what an instrumented checkpoint's handler calls.

instrument.py wraps each checkpoint statement in a `try` whose handler calls, through its file's
FileCheckpoints R (the process's calls, constants in the code: calls.py), `R.retry(K)`
(decide the failure; True: run the statement again), then `R.raising(K)` (True: a
bare `raise` of the original), `R.binding(K)` / `R.value(K)` (store a completed value in the
target name), `R.returned(K)` (what a `return` statement returns when completed); `R.settle(K)`
does it all for statements that can be neither retried nor bound. A retried `return EXPR` runs
as `keep[K] = EXPR`, so the handler always reaches `R.returned(K)`. The handler binds no name:
each call finds its exception with `sys.exception()` and is given the handler's frame, and
the failure's state (attempts, the retry's failure, the decision) is kept here by (original
exception, frame, K) until the call that reads the final decision; a BaseException leaving a
retry drops it (`R.forget(K)`).

Each step of a decision: the first failure must be recoverable (eligibility.py) and seen by no
caller first (callers.py); a retry's failure must be eligible and undecided; then a RecoveryPause
goes to the decision source, at most MAX_CONSULTATIONS times per failing statement execution.
`retry` is offered only if the checkpoint allows it and callers.py finds no other project frame
in the traceback. A fault of the bridge lets the original exception propagate with a note.
While the interpreter finalizes, nothing is consulted: the original exception propagates.
"""

from __future__ import annotations

import os
import sys

from .. import modules
from .callers import Callers
from .decision import DONE, PROPAGATE, RETRY, Decision, add_note, decided, describe_exception, internal
from .eligibility import eligible, recoverable
from .calls import FileExceptions
from .table import CheckpointTable

__all__ = ["CheckpointRuntime", "FileCheckpoints", "MAX_CONSULTATIONS"]

MAX_CONSULTATIONS = 2
_NOTHING = object()


class _Failure:
    """One failing execution of one checkpoint statement in one frame, while its handler runs:
    the original exception, consultations so far, the retry's failure still to decide, and what
    a retried `return` kept."""

    __slots__ = ("original", "attempt", "pending", "decision", "kept")

    def __init__(self, original):
        self.original, self.attempt, self.pending, self.decision, self.kept = original, 0, original, PROPAGATE, _NOTHING


class CheckpointRuntime:
    """The process's recovery state: the decision source, the callers rule, open failures."""

    def __init__(self, decisions, *, project_root: str | None = None, context_values: bool = True):
        self.decisions = decisions
        self.project_root = os.path.realpath(project_root) if project_root else None
        self.context_values = context_values
        self.callers = Callers(self.project_root)
        self._tables: list[CheckpointTable] = []
        # Open failures by (id(original exception), id(frame), id(checkpoint)).
        self._failures: dict[tuple[int, int, int], _Failure] = {}
        self._finalizing = sys.is_finalizing  # bound now: module globals may be gone at exit

    def for_file(self, filename: str, checkpoints, ranges) -> "FileCheckpoints":
        """The handlers' object for one compiled file: `checkpoints` its table (a list of dicts,
        or packed: table.py), `ranges` its user try/with bodies."""
        return self.adopt(CheckpointTable(filename, checkpoints), ranges)

    def adopt(self, table: CheckpointTable, ranges) -> "FileCheckpoints":
        """The handlers' object for a file whose table is made already (sources.DeferredRuntime)."""
        self._tables.append(table)
        self.callers.register(table.filename, ranges)
        return FileCheckpoints(self, table)

    def checkpoints(self) -> list:
        """Every checkpoint of every file compiled so far, in order."""
        return [checkpoint for table in self._tables for checkpoint in table.all()]

    # ---- state ----

    def open(self, checkpoint, exc, frame) -> _Failure:
        key = (id(exc), id(frame), id(checkpoint))
        failure = self._failures.get(key)
        if failure is None or failure.original is not exc:
            failure = self._failures[key] = _Failure(exc)
        return failure

    def find(self, checkpoint, frame) -> _Failure | None:
        """The open failure of this handler: `sys.exception()` is its original exception, or (in
        the retry's handler, or while a BaseException passes) has it as a `__context__`."""
        exc, hops = sys.exception(), 0
        while exc is not None and hops < 64:
            failure = self._failures.get((id(exc), id(frame), id(checkpoint)))
            if failure is not None and failure.original is exc:
                return failure
            exc, hops = exc.__context__, hops + 1
        return None

    def close(self, checkpoint, frame, failure) -> None:
        self._failures.pop((id(failure.original), id(frame), id(checkpoint)), None)

    # ---- deciding ----

    def decide(self, checkpoint, failure, frame) -> None:
        """Decide the failure's pending exception now (a consultation, or a rule)."""
        step = self.step(checkpoint, failure, frame)
        if isinstance(step, Decision):
            failure.decision = step
            return
        try:
            failure.decision = self.decisions.consult(step)
        except Exception as fault:  # the bridge's own fault: the program's exception goes on
            failure.decision = internal(failure.original, fault)
        if failure.decision.action == "raise":  # raised from the handler: the failure is its context
            error, failure.decision = failure.decision.value, PROPAGATE
            raise error


    def step(self, checkpoint, failure, frame):
        """A RecoveryPause for the failure to decide now, or the final Decision without one."""
        exc = failure.pending
        if exc is None:
            return failure.decision  # nothing new since the last decision (a retry succeeded)
        failure.pending = None
        try:
            if self._finalizing():
                return PROPAGATE
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
            pause = modules.load("aiython_bridge.recovery.pause")  # contracts and frame tools: loaded at the first failure
            return pause.RecoveryPause(self, checkpoint, frame, exc, attempt=failure.attempt, original=failure.original,
                                 retry_allowed=retry_allowed)
        except Exception as fault:
            return internal(failure.original, fault)

    def may_recover(self, exc, frame) -> bool:
        return recoverable(exc, frame) and not self.callers.caller_sees_first(frame, exc)


class FileCheckpoints:
    """The work of one file's generated handlers (see the module docstring); K indexes `table`.
    Each call is chosen from C and runs out of sight of the program's tracers (calls.py,
    unseen.py): the work is `_NAME(index, frame)`, `frame` the handler's."""

    def __init__(self, runtime: CheckpointRuntime, table: CheckpointTable):
        self._runtime = runtime
        self._table = table
        self.exceptions = FileExceptions(self)  # the constant its handlers test: how calls.py finds it

    def _retry(self, index, frame):
        """Decide the statement's failure (first, or its retry's); True: run it again."""
        runtime, checkpoint = self._runtime, self._table[index]
        failure = self._pending_failure(checkpoint, frame)
        try:
            runtime.decide(checkpoint, failure, frame)
        except BaseException:
            runtime.close(checkpoint, frame, failure)
            raise
        return failure.decision is RETRY

    def _raising(self, index, frame):
        """The final decision: True to propagate. The state is dropped unless a value waits."""
        checkpoint = self._table[index]
        failure = self._runtime.find(checkpoint, frame)
        if failure is None:
            return True
        if failure.decision.action == "propagate":
            self._runtime.close(checkpoint, frame, failure)
            return True
        if failure.decision.action != "bind" and failure.kept is _NOTHING:
            self._runtime.close(checkpoint, frame, failure)
        return False

    def _binding(self, index, frame):
        failure = self._runtime.find(self._table[index], frame)
        return failure is not None and failure.decision.action == "bind"

    def _value(self, index, frame):
        checkpoint = self._table[index]
        failure = self._runtime.find(checkpoint, frame)
        self._runtime.close(checkpoint, frame, failure)
        return failure.decision.value

    def _keep(self, index, frame, value):
        """A retried `return EXPR` succeeded with this value."""
        failure = self._runtime.find(self._table[index], frame)
        if failure is not None:
            failure.kept = value

    def _returned(self, index, frame):
        """What a completed `return` statement returns: a retry's value, else None."""
        checkpoint = self._table[index]
        failure = self._runtime.find(checkpoint, frame)
        if failure is None:
            return None
        self._runtime.close(checkpoint, frame, failure)
        return None if failure.kept is _NOTHING else failure.kept

    def _forget(self, index, frame):
        """A BaseException leaves the retry (a generator closed while suspended in it, Ctrl-C)."""
        checkpoint = self._table[index]
        failure = self._runtime.find(checkpoint, frame)
        if failure is not None:
            self._runtime.close(checkpoint, frame, failure)

    def _settle(self, index, frame):
        """The whole decision for a statement that can be neither retried nor bound: True: raise."""
        runtime, checkpoint = self._runtime, self._table[index]
        failure = runtime.open(checkpoint, sys.exception(), frame)
        try:
            runtime.decide(checkpoint, failure, frame)
            return failure.decision is not DONE
        finally:
            runtime.close(checkpoint, frame, failure)

    def _pending_failure(self, checkpoint, frame) -> _Failure:
        """The outer handler's first call opens the failure; the retry handler's finds it and
        records the retry's exception as pending."""
        exc = sys.exception()
        failure = self._runtime.find(checkpoint, frame)
        if failure is None:
            return self._runtime.open(checkpoint, exc, frame)
        if exc is not failure.original:
            failure.pending = exc
        return failure
