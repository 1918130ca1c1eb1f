"""`import aiython` in the program (AIError and friends), without the bridge on sys.path.

runner.py has the path finder answer for the name `aiython` when nothing on sys.path holds it,
and loads this module the first time the program imports it: the loader below runs aiython/__init__.py with the
bridge's modules visible, so the classes it takes from aiython_bridge.errors are the very classes
the bridge raises.
"""

import os

try:  # importlib.machinery's own class, without importing importlib.machinery (SPEC §2: sys.modules)
    from _frozen_importlib_external import SourceFileLoader
except ImportError:
    from importlib.machinery import SourceFileLoader

from aiython_bridge import modules

__all__ = ["BRIDGE_TOP", "spec"]

# bridge-py/: this file is bridge-py/aiython_bridge/program/public_module.py.
BRIDGE_TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _PublicModuleLoader(SourceFileLoader):
    def exec_module(self, module):
        with modules.visible():
            super().exec_module(module)


def spec():
    """The module spec of the public `aiython` package."""
    from importlib.util import spec_from_file_location

    path = os.path.join(BRIDGE_TOP, "aiython", "__init__.py")
    return spec_from_file_location("aiython", path, loader=_PublicModuleLoader("aiython", path))
