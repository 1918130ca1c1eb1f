"""The preparation cache on disk (SPEC §4.1, preparation/cache.py): entries round-trip; a truncated,
garbage, re-keyed, wrongly checksummed or other-format entry is a miss; keys change with the
source, the file name, the variant and the version; writes are atomic and give up quietly on a
full disk or a folder that cannot be made; nothing is written under sys.dont_write_bytecode; the
size bound evicts the least recently used entries.
"""

import errno
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

from aiython_bridge.preparation import cache as cache_module
from aiython_bridge.preparation.cache import PreparationCache

CODE = compile("x = 1\n", "m.py", "exec")
PAYLOAD = (CODE, [{"id": "m.py:c1"}], [[1, 2]], [], False)


class CacheCase(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="aiython-cache-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.folder = os.path.join(self.root, ".aiython", "cache")
        patcher = mock.patch.object(sys, "dont_write_bytecode", False)
        patcher.start()
        self.addCleanup(patcher.stop)

    def cache(self, **kwargs):
        settings = {"version": "1.0+test", "max_bytes": 1 << 20, **kwargs}
        return PreparationCache(self.folder, **settings)

    def entries(self):
        return sorted(os.listdir(self.folder)) if os.path.isdir(self.folder) else []


class RoundTrip(CacheCase):
    def test_an_entry_comes_back_as_stored(self):
        cache = self.cache()
        key = cache.key(b"x = 1\n", "/p/m.py", "module")
        self.assertTrue(cache.store(key, PAYLOAD))
        code, checkpoints, ranges, blocks, warns = cache.load(key)
        self.assertEqual(code, CODE)
        self.assertEqual((checkpoints, ranges, blocks, warns), (PAYLOAD[1], PAYLOAD[2], PAYLOAD[3], PAYLOAD[4]))
        self.assertEqual(self.entries(), [key + ".prep"])

    def test_the_project_folder_is_private_and_kept_out_of_git(self):
        cache = self.cache()
        cache.store(cache.key(b"", "/p/m.py", "module"), PAYLOAD)
        state = os.path.join(self.root, ".aiython")
        self.assertEqual(os.stat(state).st_mode & 0o777, 0o700)
        with open(os.path.join(state, ".gitignore"), encoding="utf-8") as f:
            self.assertIn("\n*\n", f.read())

    def test_keys_differ_by_source_name_variant_and_version(self):
        cache = self.cache()
        base = cache.key(b"x = 1\n", "/p/m.py", "module")
        self.assertEqual(base, cache.key(b"x = 1\n", "/p/m.py", "module"))
        self.assertRegex(base, r"^[0-9a-f]{32}$")
        others = {cache.key(b"x = 2\n", "/p/m.py", "module"), cache.key(b"x = 1\n", "/p/n.py", "module"),
                  cache.key(b"x = 1\n", "/p/m.py", "entry"), self.cache(version="1.1+test").key(b"x = 1\n", "/p/m.py", "module")}
        self.assertEqual(len(others), 4)
        self.assertNotIn(base, others)

    def test_a_missing_entry_is_a_miss(self):
        self.assertIsNone(self.cache().load("0" * 32))


class Untrusted(CacheCase):
    """Every way an entry can be wrong is a miss; the next store replaces it."""

    def stored(self):
        cache = self.cache()
        key = cache.key(b"x = 1\n", "/p/m.py", "module")
        cache.store(key, PAYLOAD)
        return cache, key, cache.path(key)

    def rewrite(self, path, change):
        with open(path, "rb") as f:
            blob = bytearray(f.read())
        with open(path, "wb") as f:
            f.write(change(blob))

    def assert_miss_then_rebuilt(self, cache, key):
        self.assertIsNone(cache.load(key))
        self.assertTrue(cache.store(key, PAYLOAD))
        self.assertEqual(cache.load(key)[0], CODE)

    def test_truncated(self):
        cache, key, path = self.stored()
        for length in (0, 3, 20, 60):
            self.rewrite(path, lambda blob: blob[:length])
            self.assertIsNone(cache.load(key), length)
        self.assert_miss_then_rebuilt(cache, key)

    def test_truncated_payload_with_intact_header(self):
        cache, key, path = self.stored()
        self.rewrite(path, lambda blob: blob[:-5])
        self.assert_miss_then_rebuilt(cache, key)

    def test_garbage(self):
        cache, key, path = self.stored()
        self.rewrite(path, lambda blob: bytearray(os.urandom(len(blob))))
        self.assert_miss_then_rebuilt(cache, key)

    def test_wrong_checksum(self):
        """A payload marshal still reads, changed after it was written: only the checksum tells."""
        cache, key, path = self.stored()
        self.rewrite(path, lambda blob: blob.replace(b"m.py:c1", b"m.py:c2"))
        with open(path, "rb") as f:
            self.assertEqual(__import__("marshal").loads(f.read()[cache_module._HEADER:])[1], [{"id": "m.py:c2"}])
        self.assert_miss_then_rebuilt(cache, key)

    def test_another_format(self):
        cache, key, path = self.stored()

        def other_format(blob):
            blob[len(cache_module.MAGIC)] = cache_module.FORMAT + 1
            return blob

        self.rewrite(path, other_format)
        self.assert_miss_then_rebuilt(cache, key)

    def test_an_entry_under_another_key(self):
        """A file renamed (or copied from another version's key) says which key it was written for."""
        cache, key, path = self.stored()
        other = self.cache(version="2.0+test")
        other_key = other.key(b"x = 1\n", "/p/m.py", "module")
        os.replace(path, other.path(other_key))
        self.assertIsNone(cache.load(key))
        self.assertIsNone(other.load(other_key), "an entry renamed to another key is not that key's")
        self.assertTrue(other.store(other_key, PAYLOAD))
        self.assertIsNotNone(other.load(other_key))

    def test_a_checksummed_payload_marshal_cannot_read(self):
        cache, key, path = self.stored()
        body = b"\xff\xfe not marshal"

        def forged(blob):
            header = cache_module.MAGIC + bytes([cache_module.FORMAT]) + cache_module.source_hash(body) + key.encode()
            return bytearray(header + body)

        self.rewrite(path, forged)
        self.assertIsNone(cache.load(key))

    def test_a_folder_in_place_of_an_entry(self):
        cache = self.cache()
        key = cache.key(b"x = 1\n", "/p/m.py", "module")
        os.makedirs(cache.path(key))
        self.assertIsNone(cache.load(key))


class Writing(CacheCase):
    def test_dont_write_bytecode_still_writes_and_reads(self):
        # SPEC §4.1: -B and PYTHONDONTWRITEBYTECODE keep __pycache__ out, not .aiython/cache.
        cache = self.cache()
        key = cache.key(b"x = 1\n", "/p/m.py", "module")
        with mock.patch.object(sys, "dont_write_bytecode", True):
            self.assertTrue(cache.store(key, PAYLOAD))
            self.assertIsNotNone(cache.load(key))

    def test_a_full_disk_leaves_no_temp_file_and_stops_writing(self):
        cache = self.cache()
        key = cache.key(b"x = 1\n", "/p/m.py", "module")
        full = OSError(errno.ENOSPC, "No space left on device")
        with mock.patch.object(cache_module.os, "write", side_effect=full) as write:
            self.assertFalse(cache.store(key, PAYLOAD))
            self.assertEqual(self.entries(), [])  # the temp file is gone too
            self.assertFalse(cache.store(cache.key(b"y = 2\n", "/p/m.py", "module"), PAYLOAD))
            self.assertEqual(write.call_count, 1, "after a failed write the process stops trying")
        self.assertIsNone(cache.load(key))

    def test_a_file_where_the_folder_should_be(self):
        os.makedirs(os.path.dirname(self.folder))
        with open(self.folder, "w") as f:
            f.write("not a folder")
        cache = self.cache()
        self.assertFalse(cache.store(cache.key(b"", "/p/m.py", "module"), PAYLOAD))
        self.assertIsNone(cache.load(cache.key(b"", "/p/m.py", "module")))

    def test_a_file_where_the_project_state_folder_should_be(self):
        with open(os.path.join(self.root, ".aiython"), "w") as f:
            f.write("not a folder")
        cache = self.cache()
        self.assertFalse(cache.store(cache.key(b"", "/p/m.py", "module"), PAYLOAD))

    def test_an_entry_larger_than_the_bound_is_not_written(self):
        cache = self.cache(max_bytes=100)
        self.assertFalse(cache.store(cache.key(b"", "/p/m.py", "module"), PAYLOAD))
        self.assertEqual(self.entries(), [])

    def test_a_stale_temp_file_is_cleared_when_the_folder_is_scanned(self):
        cache = self.cache()
        cache.store(cache.key(b"1", "/p/m.py", "module"), PAYLOAD)
        stale = os.path.join(self.folder, "x.prep.1.abcd.tmp")
        fresh = os.path.join(self.folder, "y.prep.2.abcd.tmp")
        for path in (stale, fresh):
            open(path, "wb").close()
        old = os.stat(stale).st_mtime - cache_module.STALE_TEMP_SECONDS - 10
        os.utime(stale, (old, old))
        self.cache().store(self.cache().key(b"2", "/p/m.py", "module"), PAYLOAD)  # a new process's first write scans
        self.assertFalse(os.path.exists(stale))
        self.assertTrue(os.path.exists(fresh))


class Bound(CacheCase):
    def size(self):
        return len(cache_module.MAGIC) + 1 + 8 + 32 + len(__import__("marshal").dumps(PAYLOAD))

    def earlier_run(self, count, max_bytes):
        """Entries an earlier process wrote, oldest first, their keys."""
        cache = self.cache(max_bytes=max_bytes)
        keys = [cache.key(b"earlier %d" % i, "/p/m.py", "module") for i in range(count)]
        for age, key in enumerate(keys):
            cache.store(key, PAYLOAD)
            os.utime(cache.path(key), (1000 + age, 1000 + age))
        return keys

    def test_eviction_keeps_the_folder_bounded_removing_what_earlier_runs_used_least_recently(self):
        size = self.size()
        earlier = self.earlier_run(8, size * 10)
        cache = self.cache(max_bytes=size * 10)  # the next run
        self.assertIsNotNone(cache.load(earlier[0]))  # a hit makes the oldest this run's
        new = [cache.key(b"new %d" % i, "/p/m.py", "module") for i in range(3)]
        for key in new:
            cache.store(key, PAYLOAD)  # the 11th entry passes the bound: down to 8 entries
        left = set(self.entries())
        self.assertEqual(len(left), 8)
        self.assertIn(earlier[0] + ".prep", left, "the entry this run used survives its older neighbours")
        self.assertFalse({earlier[1] + ".prep", earlier[2] + ".prep", earlier[3] + ".prep"} & left)
        self.assertTrue({key + ".prep" for key in new} <= left)

    def test_a_run_never_evicts_what_it_used_even_past_the_bound(self):
        # A project larger than the bound (sympy: 508 modules): evicting this run's entries would
        # make every run prepare them again.
        size = self.size()
        earlier = self.earlier_run(4, size * 10)
        cache = self.cache(max_bytes=size * 10)
        used = [cache.key(b"run %d" % i, "/p/m.py", "module") for i in range(14)]
        for key in used:
            cache.store(key, PAYLOAD)
        left = set(self.entries())
        self.assertTrue({key + ".prep" for key in used} <= left, "every entry this run wrote is kept")
        self.assertFalse({key + ".prep" for key in earlier} & left, "the earlier run's went first")
        fresh = self.cache(max_bytes=size * 10)
        self.assertTrue(all(fresh.load(key) is not None for key in used), "the next run finds them all")


if __name__ == "__main__":
    unittest.main()
