"""The preparation cache on disk (SPEC §4.1): prepared sources under the project's
`.aiython/cache/`, so that a run of an unchanged program skips parsing, planning and compiling.

An entry is one file, `<key>.prep`, named by the key of what it was prepared from (`key`: the
source bytes, its file name, the interpreter's cache tag and bytecode magic, aiython's version
and build, and the variant: entry program or module, checkpoints or not, optimization level).
It holds a header (MAGIC, FORMAT, a checksum of the payload, the key again) and the payload,
a marshal'd tuple. Nothing read is trusted unchecked: a short file, another format, another key,
a wrong checksum, a payload marshal cannot read or of the wrong shape is a miss, rebuilt and
replaced (the checksum is skipped only for the very file checked before: below).

Writes are atomic (a temp file in the folder, then os.replace: cache_files.py) and best effort: a write that
fails (a full disk, a read-only or missing folder, a file where the folder should be) gives up
silently and the process stops writing; the run is never affected. `sys.dont_write_bytecode`
(-B, PYTHONDONTWRITEBYTECODE) does not stop it (SPEC §4.1): those keep `__pycache__` out of
source folders, and this cache lives under `.aiython/`; Docker's Python images and many CI
images set the variable, where every run would otherwise be cold. The folder is bounded: when a write takes it past
`max_bytes`, the entries least recently used (mtime; a hit touches its entry) are removed until
it is back under LOW_WATER of the bound, but never one this process has used (read or written
since it started): a project larger than the bound keeps what its run needs, rather than evict
on every run what the same run prepares again (sympy as project code took 17x python3's time on
every run at 64 MiB). A hit touches its entry only when the entry is older than TOUCH_AFTER
(what eviction needs is the order of use, not the second of it), and this process's entries are
the names it used, not the ones touched since it started.

The folder's index (cache_index.py, read once per process) lets a warm import skip what it
verified before: `source_key` gives the key of a source whose stat is the recorded one without
reading it, and `load` does not hash again the payload of an entry whose stat is the one it
verified. `save_index` merges what the process learned into it, at the process's end.

Only standard modules that importlib has already loaded are used (marshal, os, sys, _imp and
importlib's frozen _bootstrap_external, whose MAGIC_NUMBER and source hash importlib.util hands
out), so the cache adds nothing to what a program finds in sys.modules.
"""

from __future__ import annotations

import _imp
import marshal
import os
import sys
import time
from _frozen_importlib_external import _RAW_MAGIC_NUMBER, MAGIC_NUMBER

from .cache_files import remove, stat_or_none, touch, write_atomically, write_gitignore
from .cache_index import CacheIndex

__all__ = [
    "FORMAT", "GITIGNORE", "LOW_WATER", "MAGIC", "PreparationCache", "STALE_TEMP_SECONDS", "SUFFIX",
    "TOUCH_AFTER", "source_hash",
]


def source_hash(data):
    """importlib.util.source_hash, without importing importlib.util."""
    return _imp.source_hash(_RAW_MAGIC_NUMBER, data)

MAGIC = b"AIYP"
FORMAT = 1
SUFFIX = ".prep"
_KEY_LENGTH = 32  # hex digits: two 64-bit hashes
_HEADER = len(MAGIC) + 1 + 8 + _KEY_LENGTH
LOW_WATER = 0.8  # eviction goes down to this fraction of the bound
STALE_TEMP_SECONDS = 600  # a temp file this old is a write that died
TOUCH_AFTER = 3600  # a hit on an entry older than this (seconds) touches it: eviction's order
GITIGNORE = "# aiython's per-project state (journal, credentials, preparation cache); never commit it\n*\n"


class PreparationCache:
    """One cache folder. `load(key)` → the payload or None; `store(key, payload)`."""

    def __init__(self, folder: str, *, version: str, max_bytes: int):
        self.folder = folder
        self.version = version
        self.max_bytes = max_bytes
        self.writable = True
        self._total: int | None = None  # bytes in the folder, known after the first write
        self._used: set = set()  # entry names this process read or wrote: never evicted by it
        self.index = CacheIndex(folder, source_hash)
        self._pid = os.getpid()  # a forked child has the parent's index to save, not its own

    def about(self, filename: str, variant: str) -> str:
        """Everything a key depends on but the source's bytes."""
        return "\0".join((self.version, sys.implementation.cache_tag or "", variant, filename))

    def key(self, data: bytes, filename: str, variant: str, stat=None) -> str:
        """The key of a source: 32 hex digits, from everything a prepared entry depends on.
        `stat`: the source file's, taken before `data` was read (the index records it)."""
        about = self.about(filename, variant)
        key = (source_hash(about.encode("utf-8", "surrogatepass") + MAGIC_NUMBER) + source_hash(data)).hex()
        self.index.note_source(about, stat, key)
        return key

    def source_key(self, filename: str, variant: str, stat):
        """The key of the source file `filename` whose stat is `stat`, if the index knows it
        (recorded from a read of that same file at that same stat), else None."""
        return self.index.key_for(self.about(filename, variant), stat)

    def path(self, key: str) -> str:
        return os.path.join(self.folder, key + SUFFIX)

    # ---- reading ----

    def load(self, key: str):
        """The payload stored under `key`, or None when there is none fit to use."""
        path, name = self.path(key), key + SUFFIX
        try:
            with open(path, "rb") as f:
                stat = os.fstat(f.fileno())
                blob = f.read()
        except OSError:
            return None
        trusted = self.index.trusted(name, stat)
        payload = _verified(blob, key, checked=trusted)
        if payload is None:
            return None
        try:
            value = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            return None
        self._used.add(name)
        if self.writable and time.time() - stat.st_mtime > TOUCH_AFTER:
            touch(path)
            stat = stat_or_none(path)
        elif trusted:
            return value
        self.index.note_entry(name, stat)
        return value

    # ---- writing ----

    def store(self, key: str, payload) -> bool:
        """Writes `payload` (marshal-able) under `key`, atomically; False when nothing was written."""
        if not self.writable:
            return False
        try:
            body = marshal.dumps(payload)
        except ValueError:
            return False
        blob = MAGIC + bytes([FORMAT]) + source_hash(body) + key.encode("ascii") + body
        if len(blob) > self.max_bytes:
            return False
        try:
            self._ensure_folder()
            write_atomically(self.path(key), blob)
        except OSError:
            self.writable = False  # full, read-only, not a folder: stop trying for this process
            return False
        self._used.add(key + SUFFIX)
        self.index.note_entry(key + SUFFIX, stat_or_none(self.path(key)))
        self._account(len(blob))
        return True

    def save_index(self) -> None:
        """Merges what this process learned into the folder's index (best effort, as writes are)."""
        if not self.writable or os.getpid() != self._pid or not os.path.isdir(self.folder):
            return
        try:
            self.index.save(write_atomically)
        except (OSError, ValueError):
            self.writable = False

    def _ensure_folder(self) -> None:
        if os.path.isdir(self.folder):
            return
        parent = os.path.dirname(self.folder)
        if not os.path.isdir(parent):
            os.makedirs(parent, mode=0o700, exist_ok=True)
            write_gitignore(parent, GITIGNORE)
        os.makedirs(self.folder, mode=0o700, exist_ok=True)

    # ---- the bound ----

    def _account(self, written: int) -> None:
        if self._total is None:
            self._total = sum(size for _, size, _ in self._entries())
        else:
            self._total += written
        if self._total > self.max_bytes:
            self._evict()

    def _entries(self):
        """(name, size, mtime) of every entry; stale temp files are removed on the way."""
        found = []
        now = time.time()
        try:
            listing = os.scandir(self.folder)
        except OSError:
            return found
        with listing:
            for item in listing:
                try:
                    stat = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if item.name.endswith(SUFFIX):
                    found.append((item.name, stat.st_size, stat.st_mtime))
                elif item.name.endswith(".tmp") and now - stat.st_mtime > STALE_TEMP_SECONDS:
                    remove(item.path)
        return found

    def _evict(self) -> None:
        entries = sorted(self._entries(), key=lambda entry: entry[2])
        total = sum(size for _, size, _ in entries)
        for name, size, _ in entries:
            if total <= self.max_bytes * LOW_WATER:
                break  # oldest first
            if name not in self._used and remove(os.path.join(self.folder, name)):
                self.index.forget(name)
                total -= size
        self._total = total


def _verified(blob: bytes, key: str, *, checked: bool = False) -> memoryview | None:
    """The payload of an entry file whose header checks out, else None; `checked`: this very
    file was verified in full before (the index says so), its checksum is not computed again."""
    if len(blob) < _HEADER or blob[:len(MAGIC)] != MAGIC or blob[len(MAGIC)] != FORMAT:
        return None
    start = len(MAGIC) + 1
    checksum, stored_key = blob[start:start + 8], blob[start + 8:_HEADER]
    if stored_key != key.encode("ascii"):
        return None
    payload = memoryview(blob)[_HEADER:]  # not copied: hashed, then read by marshal
    return payload if checked or source_hash(payload) == checksum else None
