"""A consultation's outcome (Decision) and the notes recovery adds to the exceptions it decided.

A Note on an exception marks it as decided: an outer checkpoint never asks about it again. Every
way a failure is left unrecovered says why in one (the model's `reraise` explanation included);
a fault of the bridge itself (`internal`) never replaces the program's exception.
"""

from __future__ import annotations

from .. import modules

__all__ = [
    "DONE", "Decision", "Note", "PROPAGATE", "RETRY", "add_note", "decided", "describe_exception",
    "internal",
]


class Note(str):
    """A note recovery added to an exception; its presence marks the exception as decided."""


class Decision:
    """A consultation's outcome: "retry", "complete", "bind" (with `value`), "propagate", or "raise"
    (`value` is the exception to raise instead, e.g. AIBudgetError, SPEC §13)."""

    __slots__ = ("action", "value")

    def __init__(self, action: str, value=None):
        self.action, self.value = action, value


PROPAGATE = Decision("propagate")
DONE = Decision("complete")
RETRY = Decision("retry")


def decided(exc) -> bool:
    try:
        for note in getattr(exc, "__notes__", None) or ():
            if type(note) is Note:
                return True
        return False
    except Exception:  # unreadable notes (or no stack left to read them): never ask twice
        return True


def add_note(exc, text: str) -> None:
    try:
        note = Note("aiython: " + text)
        if note not in (getattr(exc, "__notes__", None) or ()):
            exc.add_note(note)
    except Exception:
        pass


def describe_exception(exc) -> str:
    # describe/ and frameops/ are loaded when the first note is written, not at start-up.
    type_label = modules.load("aiython_bridge.describe").type_label
    program_error = modules.load("aiython_bridge.frameops").program_error
    return f"{type_label(type(exc))}: {program_error(exc).message}"


def internal(original, failure) -> Decision:
    if isinstance(failure, RecursionError):  # e.g. the program's own RecursionError, at full depth
        add_note(original, "not recovered: too little stack left to consult the model")
    else:
        add_note(original, f"recovery failed: internal error in the bridge ({describe_exception(failure)})")
    return PROPAGATE
