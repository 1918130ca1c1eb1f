"""Public names a program may import: ``from aiython import AIError``, ``group``, ``join``."""

from aiython_bridge.errors import AIError, MailboxError, TypeContractError
from aiython_bridge.mailbox import Group, Member, group, join

__all__ = ["AIError", "MailboxError", "TypeContractError", "Group", "Member", "group", "join"]
