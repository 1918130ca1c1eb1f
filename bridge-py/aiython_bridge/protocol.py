"""Mirror of docs/protocol.md for the bridge: version, limits, message types and their fields.

src/bridge/protocol.ts is the host's mirror; test/protocol-agreement.test.ts checks that
the document's tables, the TypeScript types and MESSAGES / PAYLOADS / OPS here name the same
messages and fields. A field name ending in "?" may be absent.

The bridge checks every message the host sends against MESSAGES (`check_host_message`): a
missing required field or an unknown type is a protocol violation, reported as an internal error.
"""

__all__ = [
    "BLOCKS_AHEAD", "BOTH", "BRIDGE", "CHECKPOINTS", "CHILDREN", "COMPILE", "EXIT", "FATAL", "HELLO", "HOST", "INIT", "INTERRUPT", "MAIL",
    "MAX_FRAME", "MAX_MESSAGE", "MESSAGES", "OP", "OPS", "PAUSE", "PAUSE_END", "PAYLOADS", "PLAN",
    "PROTOCOL_VERSION", "ProtocolViolation", "RESULT", "RUN", "check_host_message",
]

PROTOCOL_VERSION = 9
MAX_FRAME = 64 * 1024 * 1024
# One message, all its frames together (a model's answer as large as max_response_mb allows).
MAX_MESSAGE = 1024 * 1024 * 1024

# host -> bridge
INIT = "init"
COMPILE = "compile"
CHECKPOINTS = "checkpoints"
RUN = "run"
OP = "op"
INTERRUPT = "interrupt"
# bridge -> host
HELLO = "hello"
PLAN = "plan"
PAUSE = "pause"
PAUSE_END = "pause_end"
BLOCKS_AHEAD = "blocks_ahead"
CHILDREN = "children"
MAIL = "mail"
EXIT = "exit"
FATAL = "fatal"
# both
RESULT = "result"

HOST, BRIDGE, BOTH = "host", "bridge", "both"

# type -> (sender, fields besides "type")
MESSAGES = {
    HELLO: (BRIDGE, ("protocol", "pid", "python", "child?")),
    INIT: (HOST, ("protocol", "ignored_signals")),
    COMPILE: (HOST, ("id", "items")),
    CHECKPOINTS: (HOST, ("id", "source", "filename", "entry", "plan", "parts?")),
    RUN: (HOST, ("target", "argv", "orig_argv", "options")),
    PLAN: (BRIDGE, ("id", "path", "source", "module", "entry", "interactive?")),
    PAUSE: (BRIDGE, ("pause", "mode", "request", "modules?")),
    OP: (HOST, ("pause", "id", "op", "args")),
    INTERRUPT: (HOST, ("pause", "id")),
    PAUSE_END: (BRIDGE, ("pause", "interrupted")),
    BLOCKS_AHEAD: (BRIDGE, ()),
    CHILDREN: (BRIDGE, ("id", "executable")),
    MAIL: (BRIDGE, ("id", "op", "args")),
    RESULT: (BOTH, ("id", "pause?", "ok", "value?", "error?")),
    EXIT: (BRIDGE, ("status", "interrupted", "budget?")),
    FATAL: (BRIDGE, ("message", "traceback?")),
}

# payload name (as docs/protocol.md titles it) -> fields
PAYLOADS = {
    "RunOptions": ("model_configured", "inspect", "skip_first_line", "project_root", "context_values", "cache", "type_contracts?", "memory_limit?"),
    "ChildHello": ("secret", "parent", "forked", "target?", "argv?", "orig_argv?"),
    "RunFolder": ("dir", "secret"),
    "PauseRequest": (
        "mode", "block_id", "statement", "location", "target", "output_type", "output_schema", "requires_result",
        "code_context", "related_objects", "frame_objects", "hints", "directive?", "recovery?", "mailbox?", "concurrent?",
    ),
    "PauseLocation": ("file", "line", "column", "end_line", "end_column", "function"),
    "RecoveryDetails": (
        "exception_type", "message", "origin", "attempt", "retry_allowed", "target", "line", "complete_skips?", "origin_context?",
    ),
    "SourceWindow": ("file", "start_line", "end_line", "source"),
    "Plan": ("filename", "displayName", "rewritten", "runtimeName", "blocks", "diagnostics", "typos"),
    "BlockInfo": (
        "id", "index", "statement", "kind", "span", "target", "output_type", "requires_result", "directive",
        "is_async", "function",
    ),
    "CheckpointInfo": ("id", "span", "statement", "target", "retry_allowed"),
    "ErrorInfo": ("type", "message"),
}

# op -> its arguments (the terminal ops: finish, resume, fail; the host's own: resume, fail, restrict)
OPS = {
    "evaluate": ("code", "result_id?", "call_id"),
    "execute": ("code", "call_id"),
    "get_binding": ("name", "result_id?", "call_id"),
    "set_binding": ("name", "handle", "call_id"),
    "inspect": ("handle", "depth?", "limit?", "call_id"),
    "get_frame_code": ("frame?", "call_id"),
    "frames": ("call_id",),
    "read_values": ("refs", "call_id"),
    "hold_values": ("values_json", "call_id"),
    "finish": ("outcome", "call_id", "raw_arguments"),
    "recover": ("action", "outcome?", "explanation?", "call_id", "raw_arguments"),
    "resume": (),
    "fail": ("reason", "budget?"),
    "restrict": ("denied",),
}

_REQUIRED = {kind: tuple(f for f in fields if not f.endswith("?")) for kind, (_, fields) in MESSAGES.items()}


class ProtocolViolation(Exception):
    """The host broke the protocol; the bridge reports it as an internal error."""


def check_host_message(message):
    """Raise ProtocolViolation unless `message` is a message the host may send, with its fields."""
    kind = message.get("type")
    sender = MESSAGES.get(kind, (None,))[0]
    if sender not in (HOST, BOTH):
        raise ProtocolViolation("unknown message type %r from the host" % (kind,))
    missing = [field for field in _REQUIRED[kind] if field not in message]
    if missing:
        raise ProtocolViolation("%s message without %s" % (kind, ", ".join(missing)))
    return message
