"""Where recovery decisions come from: the host's model loop, and the process's one runtime.

A decision source has `consult(pause)` and `async aconsult(pause)`, each returning a Decision.
HostDecisions serves the pause to the host over the channel (the only one in the product);
tests answer from a function in the process (tests/support.py).
"""

from __future__ import annotations

from .. import modules
from .deferred import DeferredRuntime


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
    """pauses.py and what it needs (contracts, frame tools): loaded at the first consultation."""
    return modules.load("aiython_bridge.pauses")


_runtime = None  # a DeferredRuntime (deferred.py), or a test's CheckpointRuntime


def runtime_for(server, options: dict):
    """The process's checkpoint runtime, answering through the host: a DeferredRuntime, which
    loads checkpoints.py (CheckpointRuntime) when a statement first fails."""
    global _runtime
    if _runtime is None:
        _runtime = DeferredRuntime(HostDecisions(server), project_root=options.get("project_root"),
                                   context_values=options.get("context_values", True))
    return _runtime
