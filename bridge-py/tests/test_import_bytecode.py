"""A project module's plain bytecode in __pycache__ (import_hook.ProjectLoader): written and
refreshed exactly as python3's SourceFileLoader writes it, and left alone (CPython's get_code not
even called, its code object not unmarshalled) when it is one that python3 would use as it is:
a timestamp pyc of the source's mtime and size, a checked hash-based pyc of its hash, an
unchecked hash-based one whatever the source (as python3, unless --check-hash-based-pycs).
"""

import _imp
import importlib.util
import os
import py_compile
import shutil
import sys
import tempfile
import unittest
from importlib.machinery import SourceFileLoader
from unittest import mock

from aiython_bridge.preparation.import_hook import ProjectLoader

SOURCE = b"def f(x):\n    return x + 1\n"


class Modules:
    """The ProjectModules side: records what the loader hands it."""

    def __init__(self):
        self.seen = []
        self.plain = []

    def cached_code_for(self, data, path, stat=None):
        return None  # nothing cached: the loader goes on to code_for

    def code_for(self, data, path, fullname, plain=None, stat=None):
        self.seen.append(data)
        self.plain.append(plain)
        return compile(data, path, "exec", dont_inherit=True)


class BytecodeCase(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.root)
        self.path = os.path.join(self.root, "m.py")
        self.pyc = importlib.util.cache_from_source(self.path)
        self.write(SOURCE, mtime=1_000_000_000)
        patcher = mock.patch.object(sys, "dont_write_bytecode", False)
        patcher.start()
        self.addCleanup(patcher.stop)

    def write(self, data, *, mtime):
        with open(self.path, "wb") as f:
            f.write(data)
        os.utime(self.path, (mtime, mtime))

    def load(self):
        """get_code through ProjectLoader; whether CPython's get_code ran."""
        modules = self.modules = Modules()
        with mock.patch.object(SourceFileLoader, "get_code", autospec=True,
                               side_effect=SourceFileLoader.get_code) as cpython:
            ProjectLoader("m", self.path, modules=modules).get_code("m")
        with open(self.path, "rb") as f:
            self.assertEqual(modules.seen, [f.read()], "the source itself is prepared")
        return cpython.called

    def pyc_bytes(self):
        with open(self.pyc, "rb") as f:
            return f.read()

    def python3s_pyc(self, invalidation=py_compile.PycInvalidationMode.TIMESTAMP):
        """What python3's own loader leaves in __pycache__ for the source as it is now."""
        saved = self.pyc_bytes() if os.path.exists(self.pyc) else None
        os.remove(self.pyc) if saved is not None else None
        if invalidation is py_compile.PycInvalidationMode.TIMESTAMP:
            SourceFileLoader("m", self.path).get_code("m")
        else:
            py_compile.compile(self.path, invalidation_mode=invalidation)
        expected = self.pyc_bytes()
        if saved is not None:
            with open(self.pyc, "wb") as f:
                f.write(saved)
        return expected

    def test_a_missing_pyc_is_written_as_python3_writes_it(self):
        expected = self.python3s_pyc()
        os.remove(self.pyc)
        self.assertTrue(self.load())
        self.assertEqual(self.pyc_bytes(), expected)

    def test_the_code_cpython_compiled_from_the_source_is_handed_on_and_never_one_read_from_a_pyc(self):
        os.remove(self.python3s_pyc() and self.pyc)
        self.load()
        [plain] = self.modules.plain
        self.assertEqual(plain.co_code, compile(SOURCE, self.path, "exec", dont_inherit=True).co_code)
        self.load()  # the pyc is current now: CPython's get_code is not called, nothing is compiled
        self.assertEqual(self.modules.plain, [None])
        with mock.patch.object(ProjectLoader, "_bytecode_current", return_value=False):
            self.load()  # as under -v: CPython's get_code runs, reads the current pyc, compiles nothing
        self.assertEqual(self.modules.plain, [None])

    def test_a_current_pyc_is_not_read_past_its_header_nor_rewritten(self):
        self.load()
        before, stat = self.pyc_bytes(), os.stat(self.pyc)
        self.assertFalse(self.load(), "CPython's get_code is not needed")
        self.assertEqual((self.pyc_bytes(), os.stat(self.pyc).st_mtime_ns), (before, stat.st_mtime_ns))

    def test_a_stale_pyc_is_refreshed(self):
        self.load()
        self.write(SOURCE + b"y = 2\n", mtime=1_000_000_100)
        self.assertTrue(self.load())
        self.assertEqual(self.pyc_bytes(), self.python3s_pyc())

    def test_the_same_size_at_another_mtime_is_stale(self):
        self.load()
        self.write(SOURCE.replace(b"1", b"2"), mtime=1_000_000_100)
        self.assertTrue(self.load())
        self.assertEqual(self.pyc_bytes(), self.python3s_pyc())

    def test_a_pyc_of_another_magic_or_too_short_is_replaced(self):
        for broken in (b"\0\0\0\0" + self.python3s_pyc()[4:], b"short"):
            with self.subTest(broken=broken[:8]):
                with open(self.pyc, "wb") as f:
                    f.write(broken)
                self.assertTrue(self.load())
                self.assertEqual(self.pyc_bytes(), self.python3s_pyc())

    def test_a_checked_hash_pyc_is_current_only_for_its_source(self):
        checked = py_compile.PycInvalidationMode.CHECKED_HASH
        py_compile.compile(self.path, invalidation_mode=checked)
        self.assertFalse(self.load())
        self.write(SOURCE + b"y = 2\n", mtime=1_000_000_000)
        self.assertTrue(self.load())
        self.assertEqual(self.pyc_bytes(), self.python3s_pyc(checked), "rewritten hash-based, as python3 does")

    def test_an_unchecked_hash_pyc_is_kept_unless_python_checks_them_always(self):
        py_compile.compile(self.path, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        self.write(SOURCE + b"y = 2\n", mtime=1_000_000_100)
        self.assertFalse(self.load(), "python3 uses it without reading the source")
        with mock.patch.object(_imp, "check_hash_based_pycs", "always"):
            self.assertTrue(self.load())


if __name__ == "__main__":
    unittest.main()
