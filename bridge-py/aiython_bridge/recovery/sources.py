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
instrumented files), and from then on each DeferredCheckpoints hands its attribute lookups
(`R.retry`, `R.settle`, …) to its file's real FileCheckpoints: the handler calls that object's
bound method itself, so `sys._getframe(1)` in it is still the handler's frame. While the
interpreter finalizes (nothing can be imported then), or if the runtime cannot be loaded, the
handlers get _Propagating's answers: the original exception propagates untouched, as
CheckpointRuntime decides while finalizing.
"""

from __future__ import annotations

import _thread
import sys

from .. import modules
from .shipped import reduce_handlers
from .table import CheckpointTable
from .untraced import untraced

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
        return self._real

    def checkpoints(self):
        """Every checkpoint of every file bound so far, in order (as CheckpointRuntime's)."""
        if self._real is not None:
            return self._real.checkpoints()
        return [checkpoint for deferred in self._files for checkpoint in deferred._table.all()]


class DeferredCheckpoints:
    """One file's handler object (the constant its handlers call) until its runtime is real."""

    __slots__ = ("_runtime", "_table", "_ranges", "target")
    __reduce__ = reduce_handlers  # pickled with the program's code (cloudpickle): shipped.py

    def __init__(self, runtime, table, ranges):
        self._runtime, self._table, self._ranges = runtime, table, ranges
        self.target = None  # the file's checkpoints.FileCheckpoints, once the runtime is real

    def __getattr__(self, name, _finalizing=sys.is_finalizing):
        # Only names that are not slots get here: the handlers' calls (retry, settle, …).
        target = self.target
        if target is None:
            if _finalizing():
                return getattr(_PROPAGATING, name)
            try:
                untraced(self._runtime.real)  # the recovery code's import: not the program's to trace
            except Exception:  # noqa: BLE001 - the bridge's fault: the program's exception goes on
                return getattr(_PROPAGATING, name)
            target = self.target
        return getattr(target, name)


class _Propagating:
    """A handler's calls answered without a runtime: no retry, raise the original."""

    def retry(self, index):
        return False

    def raising(self, index):
        return True

    def binding(self, index):
        return False

    def settle(self, index):
        return True

    def value(self, index):
        return None

    def keep(self, index, value):
        return None

    def returned(self, index):
        return None

    def forget(self, index):
        return None


_PROPAGATING = _Propagating()
