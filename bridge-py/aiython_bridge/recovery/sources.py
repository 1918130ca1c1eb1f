"""Where recovery decisions come from: the host's model loop, and the process's one runtime.

A decision source has `consult(pause)` and `async aconsult(pause)`, each returning a Decision.
HostDecisions serves the pause to the host over the channel (the only one in the product);
tests answer from a function in the process (tests/support.py).

The process's runtime until one of its statements first fails (SPEC §12 start-up): a program
whose checkpoints never fail needs none of checkpoints.py, nor what it imports (the callers
rule and the handler index, eligibility, decisions, the AIError classes): a few milliseconds of
imports at every configured start. So the runtime that preparation binds is a
DeferredRuntime: each file's handlers get a DeferredCheckpoints that holds the file's table and
try/with ranges. The first handler to run loads checkpoints.py, builds the real
CheckpointRuntime and gives it every file bound so far, in order (the callers rule must know all
instrumented files), and from then on each DeferredCheckpoints hands its handler calls' work
(`_retry(index, frame)`, …, with the handler's frame) to its file's real FileCheckpoints. While the
interpreter finalizes (nothing can be imported then), or if the runtime cannot be loaded, the
handlers get _Propagating's answers: the original exception propagates untouched, as
CheckpointRuntime decides while finalizing.
"""

from __future__ import annotations

import _thread
import sys

from .. import modules
from .calls import PROPAGATING, FileExceptions, forget_owners
from .table import CheckpointTable

__all__ = ["DeferredCheckpoints", "DeferredRuntime", "HostDecisions", "runtime_for"]


class HostDecisions:
    """The host runs the model loop; the pause is served on the failing thread or event loop."""

    def __init__(self, server):
        self.server = server
        if server.pause_router is None:
            server.pause_router = lambda message: _pauses().route(server, message)

    def consult(self, pause):
        pause.server = self.server
        return _pauses().serve(pause)

    async def aconsult(self, pause):
        pause.server = self.server
        return await _pauses().serve_async(pause)


def _pauses():
    """pauses/pause.py and what it needs (contracts, frame tools): loaded at the first consultation."""
    return modules.load("aiython_bridge.pauses.pause")


_runtime = None  # a DeferredRuntime (below), or a test's CheckpointRuntime


def runtime_for(server, options: dict):
    """The process's checkpoint runtime, answering through the host: a DeferredRuntime, which
    loads checkpoints.py (CheckpointRuntime) when a statement first fails."""
    global _runtime
    if _runtime is None:
        _runtime = DeferredRuntime(HostDecisions(server), project_root=options.get("project_root"),
                                   context_values=options.get("context_values", True))
    return _runtime


class DeferredRuntime:
    """`for_file` as CheckpointRuntime's; `real()` the CheckpointRuntime, made on first need."""

    def __init__(self, decisions, *, project_root=None, context_values=True):
        self.decisions = decisions
        self.project_root = project_root
        self.context_values = context_values
        self._files = []  # DeferredCheckpoints, in the order their files were bound
        self._real = None
        self._lock = _thread.allocate_lock()

    def for_file(self, filename, checkpoints, ranges):
        if self._real is not None:
            return self._real.for_file(filename, checkpoints, ranges)
        with self._lock:
            if self._real is None:
                deferred = DeferredCheckpoints(self, CheckpointTable(filename, checkpoints), ranges)
                self._files.append(deferred)
                return deferred
        return self._real.for_file(filename, checkpoints, ranges)

    def real(self):
        """The CheckpointRuntime, holding every file bound so far (two threads failing at once get one)."""
        if self._real is None:
            checkpoints = modules.load("aiython_bridge.recovery.checkpoints")
            with self._lock:
                if self._real is None:
                    runtime = checkpoints.CheckpointRuntime(self.decisions, project_root=self.project_root,
                                                            context_values=self.context_values)
                    for deferred in self._files:
                        deferred.target = runtime.adopt(deferred._table, deferred._ranges)
                    self._files = []
                    self._real = runtime
                    forget_owners()
        return self._real

    def checkpoints(self):
        """Every checkpoint of every file bound so far, in order (as CheckpointRuntime's)."""
        if self._real is not None:
            return self._real.checkpoints()
        return [checkpoint for deferred in self._files for checkpoint in deferred._table.all()]


class DeferredCheckpoints:
    """One file's handler object until its runtime is real (its `exceptions` the constant its
    handlers test, calls.py): the calls' work, `_NAME(index, frame)`, is the real
    FileCheckpoints' (loaded then)."""

    __slots__ = ("_runtime", "_table", "_ranges", "target", "exceptions")

    def __init__(self, runtime, table, ranges):
        self._runtime, self._table, self._ranges = runtime, table, ranges
        self.target = None  # the file's checkpoints.FileCheckpoints, once the runtime is real
        self.exceptions = FileExceptions(self)

    def _real(self, _finalizing=sys.is_finalizing):
        """The file's FileCheckpoints, or PROPAGATING's answers (finalizing, or the runtime fails to load)."""
        target = self.target
        if target is None:
            if _finalizing():
                return PROPAGATING
            try:
                self._runtime.real()
            except Exception:  # noqa: BLE001 - the bridge's fault: the program's exception goes on
                return PROPAGATING
            target = self.target
        return target

    def _retry(self, index, frame):
        return self._real()._retry(index, frame)

    def _raising(self, index, frame):
        return self._real()._raising(index, frame)

    def _binding(self, index, frame):
        return self._real()._binding(index, frame)

    def _value(self, index, frame):
        return self._real()._value(index, frame)

    def _returned(self, index, frame):
        return self._real()._returned(index, frame)

    def _forget(self, index, frame):
        return self._real()._forget(index, frame)

    def _settle(self, index, frame):
        return self._real()._settle(index, frame)

    def _keep(self, index, frame, value):
        return self._real()._keep(index, frame, value)

