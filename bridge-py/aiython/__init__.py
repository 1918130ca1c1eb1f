"""Public names a program may import: ``from aiython import AIError, AIBudgetError``."""

from aiython_bridge.errors import AIBudgetError, AIError, TypeContractError

__all__ = ["AIBudgetError", "AIError", "TypeContractError"]
