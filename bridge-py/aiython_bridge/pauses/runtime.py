"""The object the rewritten program calls at each AI block: `NAME.block(N)` / `await NAME.ablock(N)`.

One per file with blocks, a constant in that file's code (preparation/program_code.py): the rendered
`NAME.block(N)` calls load it directly, so no name is bound anywhere. Reaching a block pauses the
calling thread and hands the invocation to the host (SPEC §4.3); with no model configured it
raises AIError at the block's line.
"""

import sys

from aiython_bridge import modules
from aiython_bridge.errors import AIError

__all__ = ["NO_MODEL", "Runtime"]

NO_MODEL = "no model configured (set AIYTHON_MODEL or run 'aiython setup')"


class Runtime:
    def __init__(self, server, plan, options):
        self._server = server
        self._blocks = {block["index"]: block for block in plan["blocks"]}
        self._model_configured = bool(options.get("model_configured"))
        self._options = options
        if self._model_configured:
            server.pause_router = lambda message: _pauses().route(server, message)

    def block(self, index):
        info = self._blocks[index]
        if not self._model_configured:
            raise AIError(NO_MODEL)
        return _pauses().pause_for_block(self._server, info, sys._getframe(1), self._options)

    async def ablock(self, index):
        info = self._blocks[index]
        if not self._model_configured:
            raise AIError(NO_MODEL)
        return await _pauses().pause_for_block_async(self._server, info, sys._getframe(1), self._options)


def _pauses():
    return modules.load("aiython_bridge.pauses.pause")

