"""os.fork() warns of aiython's thread no more than python3 would (SPEC §2: fidelity).

CPython 3.12 and later warn in the parent after os.fork() and os.forkpty() when the process has
more than one thread (`DeprecationWarning: This process (pid=N) is multi-threaded, use of fork()
may lead to deadlocks in the child.`), counting the process's threads as the kernel lists them
(Linux: /proc/self/stat). Once a run speaks with the host the bridge's reader thread is one of
them, where python3's process has none. When the program's threads are the forking one alone,
the warning would come only of aiython's thread: for that fork only, an "ignore" filter for
exactly that message stands first in the warnings filters. It is put there before the fork and
takes itself out when the warning is matched against it (3.12 warns before the fork's
`after_in_parent` functions run, 3.13 after them), along with the `__warningregistry__` the
warning gave the caller's module if it had none; the child, which never warns, takes it out
at once, and one still standing (the warning did not come) goes at the next fork. A program
with threads of its own gets the warning as under python3.
"""

import _warnings
import os
import sys

__all__ = ["after_fork", "before_fork"]

_BRIDGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_WARNS = sys.version_info >= (3, 12)
_WARNS_BEFORE_AFTER_HOOKS = sys.version_info < (3, 13)
_standing = []  # the filter entries standing now


class _ThisFork:
    """A filter's message pattern: matches this fork's warning text only, and on the match takes
    the filter out (the warnings machinery holds the entry it matched)."""

    def __init__(self, texts, names):
        self.texts = texts
        self.names = names  # the forking code's globals
        self.had_registry = "__warningregistry__" in names

    def match(self, text):
        if text not in self.texts:
            return None
        _withdraw()
        registry = self.names.get("__warningregistry__")
        if not self.had_registry and isinstance(registry, dict) and set(registry) <= {"version"}:
            del self.names["__warningregistry__"]
        return True


def before_fork(aiython_threads):
    """Before a fork in the program, with `aiython_threads` of the bridge's alive."""
    _withdraw()
    if not _WARNS or aiython_threads <= 0:
        return
    threads = _process_threads()
    if threads is None or threads <= 1 or threads - aiython_threads > 1:
        return
    filters = getattr(_warnings, "filters", None)
    caller = _caller()
    if not isinstance(filters, list) or caller is None:
        return
    text = "This process (pid=%d) is multi-threaded, use of %%s() may lead to deadlocks in the child." % os.getpid()
    pattern = _ThisFork((text % "fork", text % "forkpty"), caller.f_globals)
    _standing.append(("ignore", pattern, DeprecationWarning, None, 0))
    filters.insert(0, _standing[0])


def after_fork(child):
    """After the fork: in the child, and in a 3.12 parent (which has warned by now, or will not),
    the filter goes if it still stands."""
    if child or _WARNS_BEFORE_AFTER_HOOKS:
        _withdraw()


def _withdraw():
    filters = getattr(_warnings, "filters", None)
    while _standing:
        entry = _standing.pop()
        for index, present in enumerate(filters or ()):
            if present is entry:
                del filters[index]
                break


def _caller():
    """The frame that called os.fork (or os.forkpty): the first one outside the bridge."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_BRIDGE):
        frame = frame.f_back
    return frame


def _process_threads():
    """The process's threads as CPython counts them (/proc/self/stat's 20th field), or None."""
    try:
        fd = os.open("/proc/self/stat", os.O_RDONLY)
        try:
            stat = os.read(fd, 4096)
        finally:
            os.close(fd)
        return int(stat[stat.rindex(b")") + 2:].split()[17])
    except (OSError, ValueError, IndexError):
        return None
