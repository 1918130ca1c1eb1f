"""aiython's own exception classes, shared by the bridge and the public `aiython` module.

AIError and its subclasses are never eligible for recovery (SPEC §4.2).
"""

__all__ = [
    "AIBudgetError", "AIError", "GuardError", "MailboxError", "TypeContractError",
    "UnsupportedAnnotation",
]


class AIError(Exception):
    """An AI block or a recovery consultation failed; the message names the reason."""

    __module__ = "aiython"


class AIBudgetError(AIError):
    """A budget of the run (SPEC §13: model calls, tokens or cost) would have been exceeded, so the
    request was not sent. The message says which budget and what was spent; a program may catch it.
    """

    __module__ = "aiython"


class TypeContractError(AIError):
    """A value produced by the model does not satisfy the expected type (SPEC §6).

    The message names the path and both types, e.g.
    ``analysis['severity']: expected Literal['low', 'high'], got str 'medium'``.
    """

    __module__ = "aiython"


class UnsupportedAnnotation(AIError):
    """An annotation outside SPEC §6's supported set."""

    __module__ = "aiython"


class GuardError(PermissionError):
    """The source guard (SPEC §9) refused an action of code a model's tool ran: writing the
    program's source, starting a process, or a write the profile's permissions do not allow.
    Raised only inside tools; never eligible for recovery."""

    __module__ = "aiython"

    def __init__(self, message: str):
        import errno

        super().__init__(errno.EACCES, message)

    def __str__(self) -> str:
        return self.strerror
class MailboxError(AIError):
    """A mailbox call the host refused (SPEC §8): the message says what to change."""

    __module__ = "aiython"
