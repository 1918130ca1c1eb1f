"""`import aiython` in the program (AIError and friends), without the bridge on sys.path and
without a finder of aiython's on sys.meta_path or a call of aiython's in any import (SPEC §2).

The path finder keeps one finder per sys.path entry in sys.path_importer_cache, and for an entry
that does not exist (the standard library's zip, `lib/python3XY.zip`, which a normal install does
not have) it keeps None. `install` puts there a FileFinder, the import system's own class, over
bridge-py/public/, which holds the public package alone: `import aiython` finds it where that
entry stands on sys.path, a program's own `aiython` in its folder first; every other name is
looked for by importlib's code as under python3. Its loader runs aiython/__init__.py with the
bridge's modules visible, so the classes it takes from aiython_bridge.errors are the very
classes the bridge raises. Where no such entry exists, a finder at the end of sys.meta_path
does the same.
"""

import os
import sys

try:  # importlib.machinery's own classes, without importing importlib.machinery (SPEC §2: sys.modules)
    from _frozen_importlib_external import FileFinder, SourceFileLoader
except ImportError:
    from importlib.machinery import FileFinder, SourceFileLoader

from aiython_bridge import modules

__all__ = ["PUBLIC_DIR", "install"]

# bridge-py/public/: this file is bridge-py/aiython_bridge/program/public_module.py.
PUBLIC_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "public")


class _PublicModuleLoader(SourceFileLoader):
    def exec_module(self, module):
        with modules.visible():
            super().exec_module(module)


class _PublicModuleFinder:
    """Where no sys.path entry is free: answers for the name `aiython` only, after every other finder."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "aiython":
            return None
        from importlib.util import spec_from_file_location

        init = os.path.join(PUBLIC_DIR, "aiython", "__init__.py")
        return spec_from_file_location("aiython", init, loader=_PublicModuleLoader("aiython", init))


def install():
    """Makes `import aiython` work in the program."""
    for entry in sys.path:
        if entry.endswith(".zip") and sys.path_importer_cache.get(entry, None) is None and not os.path.exists(entry):
            sys.path_importer_cache[entry] = FileFinder(PUBLIC_DIR, (_PublicModuleLoader, [".py"]))
            return
    sys.meta_path.append(_PublicModuleFinder)
