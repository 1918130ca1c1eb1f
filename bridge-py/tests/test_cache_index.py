"""The preparation cache's index (preparation/cache_index.py, SPEC §4.1): a source whose stat is
the recorded one gives its key without being read, and an edited one (another size or mtime)
does not; a source changed within RACY_NS of being read is never recorded; an entry verified
before is not hashed again, while one written since is hashed (and a corrupt one is a miss); a
corrupt index is an empty one, and one past MAX_RECORDS starts again; a forked child saves
nothing; a warm import through the loader reads no source.
"""

import os
import shutil
import sys
import tempfile
import time
import unittest
from unittest import mock

from aiython_bridge.preparation import cache as cache_module, cache_index, prepare
from aiython_bridge.preparation.cache import PreparationCache
from aiython_bridge.preparation.import_hook import ProjectLoader, ProjectModules

CODE = compile("x = 1\n", "m.py", "exec")
PAYLOAD = (CODE, [{"id": "m.py:c1"}], [[1, 2]], [], False)
LONG_AGO = time.time() - 1000


class Later:
    """time, seen RACY_NS and more after now: what was just written is no longer racy."""

    @staticmethod
    def time_ns():
        return time.time_ns() + 10 * cache_index.RACY_NS


class IndexCase(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="aiython-index-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.folder = os.path.join(self.root, ".aiython", "cache")
        self.source = os.path.join(self.root, "m.py")
        self.write(b"VALUE = 1\n", LONG_AGO)
        patcher = mock.patch.object(sys, "dont_write_bytecode", False)
        patcher.start()
        self.addCleanup(patcher.stop)

    def write(self, data, mtime):
        with open(self.source, "wb") as f:
            f.write(data)
        os.utime(self.source, (mtime, mtime))

    def cache(self):
        return PreparationCache(self.folder, version="1.0+test", max_bytes=1 << 20)

    def recorded(self):
        """A process that read the source, stored its entry and saved the index; the key."""
        cache = self.cache()
        stat = os.stat(self.source)
        with open(self.source, "rb") as f:
            key = cache.key(f.read(), self.source, "module", stat)
        cache.store(key, PAYLOAD)
        cache.save_index()
        return key


class Sources(IndexCase):
    def test_a_recorded_source_gives_its_key_by_its_stat(self):
        key = self.recorded()
        self.assertEqual(self.cache().source_key(self.source, "module", os.stat(self.source)), key)
        self.assertIsNone(self.cache().source_key(self.source, "other variant", os.stat(self.source)))

    def test_an_edited_source_is_not_taken_for_the_recorded_one(self):
        self.recorded()
        for data, mtime in [(b"VALUE = 2\n", LONG_AGO + 1), (b"VALUE = 22\n", LONG_AGO)]:
            with self.subTest(data=data):
                self.write(data, mtime)
                self.assertIsNone(self.cache().source_key(self.source, "module", os.stat(self.source)))

    def test_a_source_changed_just_now_is_never_recorded(self):
        self.write(b"VALUE = 1\n", time.time())
        self.recorded()
        self.assertIsNone(self.cache().source_key(self.source, "module", os.stat(self.source)))


class Entries(IndexCase):
    def loads_hashing(self, cache, key):
        """cache.load(key) and how many times it hashed."""
        with mock.patch.object(cache_module, "source_hash", wraps=cache_module.source_hash) as hashing:
            value = cache.load(key)
        return value, hashing.call_count

    def test_a_verified_entry_is_not_hashed_again_and_one_written_since_is(self):
        with mock.patch.object(cache_index, "time", Later):
            key = self.recorded()
            value, hashed = self.loads_hashing(self.cache(), key)
            self.assertEqual(value[0], CODE)
            self.assertEqual(hashed, 0, "the entry's stat is the one verified")
            with open(self.cache().path(key), "r+b") as f:  # changed in place: another ctime
                blob = bytearray(f.read())
                blob[-3] ^= 0xFF
                f.seek(0)
                f.write(blob)
            value, hashed = self.loads_hashing(self.cache(), key)
            self.assertIsNone(value, "a changed entry is checked, and its checksum refuses it")
            self.assertEqual(hashed, 1)

    def test_an_entry_written_just_now_is_hashed(self):
        key = self.recorded()
        value, hashed = self.loads_hashing(self.cache(), key)
        self.assertEqual(value[0], CODE)
        self.assertEqual(hashed, 1)


class File(IndexCase):
    def test_a_corrupt_index_is_an_empty_one(self):
        self.recorded()
        index = os.path.join(self.folder, cache_index.INDEX)
        with open(index, "rb") as f:
            whole = f.read()
        for damage in (b"", b"AIYI\x01" + b"\x00" * 40, whole[:-5]):
            with self.subTest(damage=damage[:8]):
                with open(index, "wb") as f:
                    f.write(damage)
                self.assertIsNone(self.cache().source_key(self.source, "module", os.stat(self.source)))

    def test_saves_merge_what_each_process_learned(self):
        first = self.recorded()
        other = os.path.join(self.root, "n.py")
        with open(other, "wb") as f:
            f.write(b"n = 1\n")
        os.utime(other, (LONG_AGO, LONG_AGO))
        cache = self.cache()
        second = cache.key(b"n = 1\n", other, "module", os.stat(other))
        cache.save_index()
        fresh = self.cache()
        self.assertEqual(fresh.source_key(self.source, "module", os.stat(self.source)), first)
        self.assertEqual(fresh.source_key(other, "module", os.stat(other)), second)

    def test_an_index_past_its_bound_starts_again_from_what_the_saving_process_learned(self):
        self.recorded()
        other = os.path.join(self.root, "n.py")
        with open(other, "wb") as f:
            f.write(b"n = 1\n")
        os.utime(other, (LONG_AGO, LONG_AGO))
        cache = self.cache()
        second = cache.key(b"n = 1\n", other, "module", os.stat(other))
        with mock.patch.object(cache_index, "MAX_RECORDS", 0):
            cache.save_index()
        fresh = self.cache()
        self.assertIsNone(fresh.source_key(self.source, "module", os.stat(self.source)))
        self.assertEqual(fresh.source_key(other, "module", os.stat(other)), second)

    def test_a_forked_child_saves_nothing(self):
        cache = self.cache()
        cache.key(b"VALUE = 1\n", self.source, "module", os.stat(self.source))
        cache.store(cache.key(b"x", self.source, "module"), PAYLOAD)
        with mock.patch.object(cache_module.os, "getpid", return_value=os.getpid() + 1):
            cache.save_index()
        self.assertFalse(os.path.exists(os.path.join(self.folder, cache_index.INDEX)))


class Loader(IndexCase):
    def test_a_warm_import_reads_no_source_and_an_edit_is_prepared_again(self):
        class Server:
            pid, exiting, pause_router = os.getpid(), False, None

        options = {"model_configured": True, "project_root": self.root, "context_values": True,
                   "cache": {"dir": self.folder, "version": "test", "max_bytes": 1 << 22}}

        def load():
            prepare._caches.clear()  # a new process
            loader = ProjectLoader("m", self.source, modules=ProjectModules(Server(), options))
            namespace = {}
            with mock.patch.object(ProjectLoader, "get_data", autospec=True, side_effect=ProjectLoader.get_data) as reads:
                exec(loader.get_code("m"), namespace)
            prepare.save_indexes()
            return namespace["VALUE"], reads.call_count

        for dont_write_bytecode in (False, True):
            with self.subTest(dont_write_bytecode=dont_write_bytecode), \
                    mock.patch.object(sys, "dont_write_bytecode", dont_write_bytecode):
                shutil.rmtree(os.path.join(self.root, ".aiython"), True)
                shutil.rmtree(os.path.join(self.root, "__pycache__"), True)
                self.write(b"VALUE = 1\n", LONG_AGO)
                self.assertEqual(load()[0], 1)
                self.assertEqual(load(), (1, 0), "warm: the source is not read")
                self.write(b"VALUE = 2\n", LONG_AGO + 5)  # the same size, another mtime
                self.assertEqual(load()[0], 2)
                self.assertEqual(load(), (2, 0))


if __name__ == "__main__":
    unittest.main()
