"""Public names a program may import: ``from aiython import AIError``."""

from aiython_bridge.errors import AIError, TypeContractError

__all__ = ["AIError", "TypeContractError"]
