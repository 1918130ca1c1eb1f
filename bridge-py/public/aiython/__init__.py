"""Public names a program may import: ``from aiython import AIError, AIBudgetError``, ``group``, ``join``."""

from aiython_bridge.errors import AIBudgetError, AIError, MailboxError, TypeContractError
from aiython_bridge.pauses.mailbox import Group, Member, group, join

__all__ = ["AIBudgetError", "AIError", "MailboxError", "TypeContractError", "Group", "Member", "group", "join"]
