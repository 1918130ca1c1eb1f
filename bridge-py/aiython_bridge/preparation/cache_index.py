"""The preparation cache's index (SPEC §4.1): one small file, `index`, read once per process, so
that a warm import of a project module reads neither its source nor the whole of its entry twice.

It holds two tables, both about files as `os.stat` saw them:
- sources: (file name, what else the key depends on) → (mtime_ns, size, key). A source whose
  stat matches is taken to be the text that gave `key`, as CPython takes a timestamp .pyc to be
  its source's: the import reads and hashes nothing of it.
- entries: entry file name → (size, mtime_ns, ctime_ns, inode) of the entry as this cache wrote
  or last verified it. An entry whose stat still matches is the file that was checked, and its
  payload's checksum is not computed again (it is, in full, for any other: a file written or
  touched since, by anything, has a new ctime).

Nothing is recorded "racily": a source or an entry changed less than RACY_NS before it was seen
could change again within the same timestamp tick and keep its stat, so it is checked in full
(hashed) on every run until it is that old (git's index does the same). What a process learns is
merged into the file at its end (`save`: read again, merged, written atomically); two processes
saving at once may lose a record, which only costs the next run a hash. The file has its own
header and checksum: a corrupt or foreign index is an empty one.
"""

from __future__ import annotations

import marshal
import os
import time

__all__ = ["CacheIndex", "INDEX", "MAX_RECORDS", "RACY_NS"]

INDEX = "index"
_MAGIC = b"AIYI"
_FORMAT = 1
RACY_NS = 2_000_000_000  # a file changed this recently may change again unseen within a tick
MAX_RECORDS = 20_000  # past this (about 2 MB), a save starts the tables again from this process's records


class CacheIndex:
    """The index of one cache folder; `checksum(bytes)` is the cache's own payload hash."""

    def __init__(self, folder: str, checksum):
        self.path = os.path.join(folder, INDEX)
        self._checksum = checksum
        self._tables = None  # (sources, entries), read on first use
        self._sources: dict = {}  # what this process learned, saved at its end
        self._entries: dict = {}
        self._forgotten: set = set()

    # ---- sources ----

    def key_for(self, about: str, stat):
        """The key of the source `about` names if its stat is the recorded one, else None."""
        record = self._read()[0].get(about)
        if type(record) is not tuple or len(record) != 3 or record[:2] != (stat.st_mtime_ns, stat.st_size):
            return None
        key = record[2]
        return key if type(key) is str and len(key) == 32 and key.isalnum() and key.isascii() else None

    def note_source(self, about: str, stat, key: str) -> None:
        """`stat` (taken before the source was read) gave the text whose key is `key`."""
        if stat is not None and time.time_ns() - stat.st_mtime_ns >= RACY_NS:
            self._sources[about] = (stat.st_mtime_ns, stat.st_size, key)

    # ---- entries ----

    def trusted(self, name: str, stat) -> bool:
        """Whether entry `name`, as `stat` (its open file's) shows it, is the one verified before."""
        return self._read()[1].get(name) == _entry_record(stat) and not _racy(stat)

    def note_entry(self, name: str, stat) -> None:
        """Entry `name` was written or verified in full, and `stat` is its file's now."""
        if stat is not None and not _racy(stat):
            self._entries[name] = _entry_record(stat)
        self._forgotten.discard(name)

    def forget(self, name: str) -> None:
        """Entry `name` was removed (evicted, or found corrupt)."""
        self._entries.pop(name, None)
        self._forgotten.add(name)

    # ---- the file ----

    def save(self, write) -> None:
        """Merges what this process learned into the file (`write(path, blob)`: atomic)."""
        if not self._sources and not self._entries and not self._forgotten:
            return
        self._tables = None
        sources, entries = self._read()
        if len(sources) + len(entries) > MAX_RECORDS:
            sources, entries = {}, {}
        sources.update(self._sources)
        entries.update(self._entries)
        for name in self._forgotten:
            entries.pop(name, None)
        body = marshal.dumps((sources, entries))
        write(self.path, _MAGIC + bytes([_FORMAT]) + self._checksum(body) + body)
        self._sources, self._entries, self._forgotten = {}, {}, set()
        self._tables = (sources, entries)

    def _read(self):
        if self._tables is None:
            self._tables = self._load()
        return self._tables

    def _load(self):
        try:
            with open(self.path, "rb") as f:
                blob = f.read()
        except OSError:
            return {}, {}
        head = len(_MAGIC) + 1 + 8
        if len(blob) < head or blob[:len(_MAGIC)] != _MAGIC or blob[len(_MAGIC)] != _FORMAT:
            return {}, {}
        body = memoryview(blob)[head:]
        if self._checksum(body) != blob[head - 8:head]:
            return {}, {}
        try:
            tables = marshal.loads(body)
        except (EOFError, ValueError, TypeError):
            return {}, {}
        if type(tables) is not tuple or len(tables) != 2 or not all(type(table) is dict for table in tables):
            return {}, {}
        return tables


def _entry_record(stat):
    return (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)


def _racy(stat) -> bool:
    return time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) < RACY_NS
