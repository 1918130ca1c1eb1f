"""The preparation cache on disk (SPEC §4.1): prepared sources under the project's
`.aiython/cache/`, so that a run of an unchanged program skips parsing, planning and compiling.

An entry is one file, `<key>.prep`, named by the key of what it was prepared from (`key`: the
source bytes, its file name, the interpreter's cache tag and bytecode magic, aiython's version
and build, and the variant: entry program or module, checkpoints or not, optimization level).
It holds a header (MAGIC, FORMAT, a checksum of the payload, the key again) and the payload,
a marshal'd tuple. Nothing read is trusted: a short file, another format, another key, a wrong
checksum, a payload marshal cannot read or of the wrong shape is a miss, rebuilt and replaced.

Writes are atomic (a temp file in the folder, then os.replace) and best effort: a write that
fails (a full disk, a read-only or missing folder, a file where the folder should be) gives up
silently and the process stops writing; the run is never affected. `sys.dont_write_bytecode`
(-B, PYTHONDONTWRITEBYTECODE) does not stop it (SPEC §4.1): those keep `__pycache__` out of
source folders, and this cache lives under `.aiython/`; Docker's Python images and many CI
images set the variable, where every run would otherwise be cold. The folder is bounded: when a write takes it past
`max_bytes`, the entries least recently used (mtime; a hit touches its entry) are removed until
it is back under LOW_WATER of the bound, but never one this process has used (read or written
since it started): a project larger than the bound keeps what its run needs, rather than evict
on every run what the same run prepares again (sympy as project code took 17x python3's time on
every run at 64 MiB).

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

__all__ = [
    "FORMAT", "GITIGNORE", "LOW_WATER", "MAGIC", "PreparationCache", "STALE_TEMP_SECONDS", "SUFFIX",
    "source_hash",
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
GITIGNORE = "# aiython's per-project state (journal, credentials, preparation cache); never commit it\n*\n"


class PreparationCache:
    """One cache folder. `load(key)` → the payload or None; `store(key, payload)`."""

    def __init__(self, folder: str, *, version: str, max_bytes: int):
        self.folder = folder
        self.version = version
        self.max_bytes = max_bytes
        self.writable = True
        self._total: int | None = None  # bytes in the folder, known after the first write
        self._since = time.time()  # entries touched since then are this process's: never evicted

    def key(self, data: bytes, filename: str, variant: str) -> str:
        """The key of a source: 32 hex digits, from everything a prepared entry depends on."""
        about = "\0".join((self.version, sys.implementation.cache_tag or "", variant, filename))
        return (source_hash(about.encode("utf-8", "surrogatepass") + MAGIC_NUMBER) + source_hash(data)).hex()

    def path(self, key: str) -> str:
        return os.path.join(self.folder, key + SUFFIX)

    # ---- reading ----

    def load(self, key: str):
        """The payload stored under `key`, or None when there is none fit to use."""
        path = self.path(key)
        try:
            with open(path, "rb") as f:
                blob = f.read()
        except OSError:
            return None
        payload = _verified(blob, key)
        if payload is None:
            return None
        try:
            value = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            return None
        if self.writable:
            _touch(path)
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
            self._write(self.path(key), blob)
        except OSError:
            self.writable = False  # full, read-only, not a folder: stop trying for this process
            return False
        self._account(len(blob), keep=key + SUFFIX)
        return True

    def _ensure_folder(self) -> None:
        if os.path.isdir(self.folder):
            return
        parent = os.path.dirname(self.folder)
        if not os.path.isdir(parent):
            os.makedirs(parent, mode=0o700, exist_ok=True)
            _write_gitignore(parent)
        os.makedirs(self.folder, mode=0o700, exist_ok=True)

    def _write(self, path: str, blob: bytes) -> None:
        temp = "%s.%d.%s.tmp" % (path, os.getpid(), os.urandom(4).hex())
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            try:
                view = memoryview(blob)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
            os.replace(temp, path)
        except BaseException:
            _remove(temp)
            raise

    # ---- the bound ----

    def _account(self, written: int, *, keep: str) -> None:
        if self._total is None:
            self._total = sum(size for _, size, _ in self._entries())
        else:
            self._total += written
        if self._total > self.max_bytes:
            self._evict(keep)

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
                    _remove(item.path)
        return found

    def _evict(self, keep: str) -> None:
        entries = sorted(self._entries(), key=lambda entry: entry[2])
        total = sum(size for _, size, _ in entries)
        for name, size, mtime in entries:
            if total <= self.max_bytes * LOW_WATER or mtime >= self._since:
                break  # oldest first: the rest were used by this process
            if name != keep and _remove(os.path.join(self.folder, name)):
                total -= size
        self._total = total


def _verified(blob: bytes, key: str) -> memoryview | None:
    """The payload of an entry file whose header checks out, else None."""
    if len(blob) < _HEADER or blob[:len(MAGIC)] != MAGIC or blob[len(MAGIC)] != FORMAT:
        return None
    start = len(MAGIC) + 1
    checksum, stored_key = blob[start:start + 8], blob[start + 8:_HEADER]
    if stored_key != key.encode("ascii"):
        return None
    payload = memoryview(blob)[_HEADER:]  # not copied: hashed, then read by marshal
    return payload if source_hash(payload) == checksum else None


def _touch(path: str) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def _remove(path: str) -> bool:
    try:
        os.unlink(path)
        return True
    except OSError:
        return False


def _write_gitignore(folder: str) -> None:
    try:
        fd = os.open(os.path.join(folder, ".gitignore"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return
    try:
        os.write(fd, GITIGNORE.encode("utf-8"))
    finally:
        os.close(fd)
