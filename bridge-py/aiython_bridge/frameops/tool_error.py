"""Tool errors (SPEC §5.2): a failed frame operation, returned to the model as data.

A ``ToolError`` becomes the tool result ``{"status":"error","error","message"}``. Program
exceptions come back as ``ToolError(<class name>, str(exc)[:2000])``; ``SystemExit`` too
(a tool cannot end the program). ``KeyboardInterrupt`` and other BaseExceptions propagate.
"""

from __future__ import annotations

from .. import describe

__all__ = ["MESSAGE_LIMIT", "ToolError", "call_program", "program_error", "syntax_error"]

MESSAGE_LIMIT = 2000


class ToolError(Exception):
    """A tool call failed; ``error_type`` and ``message`` go back to the model as data."""

    def __init__(self, error_type: str, message: str):
        super().__init__(f"{error_type}: {message}")
        self.error_type = error_type
        self.message = message

    def to_dict(self) -> dict:
        """The ``error`` of a failed FrameOpResult (src/recovery/ports.ts)."""
        return {"type": self.error_type, "message": self.message}


def program_error(exc: BaseException) -> ToolError:
    """The program's exception as a tool error: its class name and ``str()`` (bounded)."""
    name = describe.type_names(type(exc))[0]
    try:
        message = str(exc)
    except Exception as failure:
        message = f"<str() of the {name} failed with {describe.type_names(type(failure))[0]}>"
    return ToolError(name, message[:MESSAGE_LIMIT])


def syntax_error(exc: SyntaxError) -> ToolError:
    kind = describe.type_names(type(exc))[0]
    message = exc.msg or "invalid syntax"
    if kind != "SyntaxError":
        message = f"{kind}: {message}"
    if exc.lineno:
        message += f" (line {exc.lineno}" + (f", column {exc.offset})" if exc.offset else ")")
    text = (exc.text or "").strip()
    if text:
        message += f": {text[:200]}"
    return ToolError("SyntaxError", message[:MESSAGE_LIMIT])


def call_program(function, *args):
    try:
        return function(*args)
    except SystemExit as exc:
        raise ToolError("SystemExit", f"the code tried to end the program (exit status {exc.code!r}); "
                        "tools cannot exit") from None
    except Exception as exc:
        raise program_error(exc) from None
