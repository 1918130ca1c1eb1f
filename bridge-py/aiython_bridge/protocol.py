"""Mirror of docs/protocol.md for the bridge: version, limits and message type names.

src/recovery/protocol.ts is the host's mirror; keep both in step with the document.
"""

PROTOCOL_VERSION = 2
MAX_FRAME = 64 * 1024 * 1024

# host -> bridge
INIT = "init"
COMPILE = "compile"
RUN = "run"
OP = "op"
# bridge -> host
HELLO = "hello"
PLAN = "plan"
PAUSE = "pause"
PAUSE_END = "pause_end"
EXIT = "exit"
FATAL = "fatal"
# both
RESULT = "result"


class ProtocolViolation(Exception):
    """The host broke the protocol; the bridge reports it as an internal error."""
