"""The object the rewritten program calls at each AI block: `NAME.block(N)` / `(await NAME.ablock(N))()`.

One per file with blocks, a constant in that file's code (preparation/program_code.py): the rendered
`NAME.block(N)` calls load it directly, so no name is bound anywhere. Reaching a block pauses the
calling thread and hands the invocation to the host (SPEC §4.3); with no model configured it
raises AIError at the block's line.

A sync block runs while `NAME.block` is looked up (a property that reads N from the code after
the lookup, block_call.py), and the call itself is C code that returns the block's value or
raises its exception: a caught AIError's traceback, printed by traceback.print_exc(), logging or
a thread, holds the program's frames only, as if the line had raised it (SPEC §2). An async
block's coroutine ends with such a call for its value or exception, never raising through
its own frames (a cancellation, KeyboardInterrupt or SystemExit still does), and the
program's frame calls it.
"""

import sys

from aiython_bridge import modules
from aiython_bridge.errors import AIError
from aiython_bridge.pauses import block_call

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

    @property
    def block(self):
        """`NAME.block(N)`: the block N that the calling code is about to call, run now; the
        call then returns its value or raises its exception from C (block_call.py)."""
        frame = sys._getframe(1)
        index = block_call.called_index(frame)
        if index not in self._blocks:
            return self._run  # not the rendered call's shape: the block runs at the call
        try:
            value = self._run(index, frame)
        except BaseException as exc:  # noqa: BLE001 - the block's outcome, raised at the call
            return block_call.raising(exc)
        return block_call.returning(index, value)

    def _run(self, index, frame=None):
        info = self._blocks[index]
        if not self._model_configured:
            raise AIError(NO_MODEL)
        return _pauses().pause_for_block(self._server, info, frame or sys._getframe(1), self._options)

    async def ablock(self, index):
        """`(await NAME.ablock(N))()`: block N with the event loop running; what the await gives
        is the call that returns its value or raises its exception (block_call.py)."""
        info = self._blocks[index]
        if not self._model_configured:
            return block_call.settled_raise(AIError(NO_MODEL))
        try:
            value = await _pauses().pause_for_block_async(self._server, info, sys._getframe(1), self._options)
        except Exception as exc:  # noqa: BLE001 - the block's outcome, raised by the program's frame
            return block_call.settled_raise(exc)
        return block_call.settled_value(value)


def _pauses():
    return modules.load("aiython_bridge.pauses.pause")

