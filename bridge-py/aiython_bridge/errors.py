"""aiython's own exception classes, shared by the bridge and the public `aiython` module.

AIError and its subclasses are never eligible for recovery (SPEC §4.2).
"""


class AIError(Exception):
    """An AI block or a recovery consultation failed; the message names the reason."""

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


class MailboxError(AIError):
    """A mailbox call the host refused (SPEC §8): the message says what to change."""

    __module__ = "aiython"
