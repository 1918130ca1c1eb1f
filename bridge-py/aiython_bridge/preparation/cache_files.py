"""The preparation cache's file operations (cache.py, cache_index.py): an atomic write (a temp
file in the same folder, then os.replace), and the quiet stat, touch and remove that a best-effort
cache needs (an OSError is the answer, never raised). Only `os`, which importlib has loaded.
"""

from __future__ import annotations

import os

__all__ = ["remove", "stat_or_none", "touch", "write_atomically", "write_gitignore"]


def write_atomically(path: str, blob: bytes) -> None:
    """`blob` as the file `path`, whole or not at all (OSError when it could not be written)."""
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
        remove(temp)
        raise


def stat_or_none(path: str):
    try:
        return os.stat(path)
    except OSError:
        return None


def touch(path: str) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def remove(path: str) -> bool:
    try:
        os.unlink(path)
        return True
    except OSError:
        return False


def write_gitignore(folder: str, text: str) -> None:
    """`text` as the folder's .gitignore, unless it has one."""
    try:
        fd = os.open(os.path.join(folder, ".gitignore"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return
    try:
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
