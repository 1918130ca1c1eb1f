"""A project module's code straight from the preparation cache (prepare.cached_module_code): what
the import hook uses under -B and PYTHONDONTWRITEBYTECODE, where CPython's own get_code would
compile the module for nothing. A miss is None and prepares nothing; a hit compiles nothing,
unless the module's compile warns, when it is compiled again so its warnings show as python3 -B
shows them on every run."""

import os
import shutil
import sys
import tempfile
import unittest
import warnings
from unittest import mock

from aiython_bridge.preparation import prepare

SOURCE = b"def double(n):\n    return n * 2\nVALUE = double(21)\n"
WARNS = b"assert (1, 'always true')\nVALUE = 1\n"


class Server:
    pid, exiting, pause_router = os.getpid(), False, None


class CachedModuleCode(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="aiython-cached-module-")
        self.addCleanup(shutil.rmtree, self.root, True)
        patcher = mock.patch.object(sys, "dont_write_bytecode", True)
        patcher.start()
        self.addCleanup(patcher.stop)
        prepare._caches.clear()
        self.options = {"model_configured": True, "project_root": self.root, "context_values": True,
                        "cache": {"dir": os.path.join(self.root, "cache"), "version": "test", "max_bytes": 1 << 20}}
        self.path = os.path.join(self.root, "mod.py")

    def entries(self):
        folder = os.path.join(self.root, "cache")
        return os.listdir(folder) if os.path.isdir(folder) else []

    def test_a_miss_is_none_and_prepares_nothing(self):
        self.assertIsNone(prepare.cached_module_code(Server(), self.options, SOURCE, self.path))
        self.assertEqual(self.entries(), [])

    def test_a_hit_is_the_prepared_code_and_compiles_nothing(self):
        prepare.module_code(Server(), self.options, SOURCE, self.path, lambda text: None)
        with mock.patch("builtins.compile", side_effect=AssertionError("compiled on a hit")):
            code = prepare.cached_module_code(Server(), self.options, SOURCE, self.path)
        namespace = {"__name__": "mod"}
        exec(code, namespace)
        self.assertEqual(namespace["VALUE"], 42)

    def test_a_hit_whose_compile_warns_shows_the_warning_again(self):
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            prepare.module_code(Server(), self.options, WARNS, self.path, lambda text: None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            code = prepare.cached_module_code(Server(), self.options, WARNS, self.path)
        self.assertIsNotNone(code)
        self.assertEqual([w.category for w in caught], [SyntaxWarning])
        self.assertEqual((caught[0].filename, caught[0].lineno), (self.path, 1))


if __name__ == "__main__":
    unittest.main()
