"""Where recovery decisions come from: the host's model loop, and the process's one runtime.

A decision source has `consult(pause)` and `async aconsult(pause)`, each returning a Decision.
HostDecisions serves the pause to the host over the channel (the only one in the product);
tests answer from a function in the process (tests/support.py).
"""

from __future__ import annotations

from .. import pauses
from .checkpoints import CheckpointRuntime


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
