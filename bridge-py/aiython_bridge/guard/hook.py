"""The audit hook of the source guard and the watches it serves, one per thread in a tool.

`watching(watch)` puts a Watch on the current thread for the duration of one frame operation
(a nested pause on the same thread puts its own and restores the outer one after). The hook
looks up the event's check (events.py) only while some thread is watched, and only for a
watched thread does it run it; a refusal is recorded on the Watch (so the tool reports it even
when the model's code caught the exception) and raised as GuardError, which stops the action.
"""

from __future__ import annotations

import _thread
import sys

from ..errors import GuardError
from .events import CHECKS as _EVENT_CHECKS, Refusal

__all__ = ["CHECKS", "GuardUnavailable", "PROBE_EVENT", "Watch", "install", "watching"]

_watches: dict[int, "Watch"] = {}
_installed = [False]
_install_lock = _thread.allocate_lock()
PROBE_EVENT = "aiython.guard.probe"


class GuardUnavailable(Exception):
    """The hook could not be installed (another audit hook refused it); tools must not run."""


class Watch:
    """What the guard knows about one operation: the project root (real path), whether every
    file write is refused (`deny_writes`: the profile lacks write_filesystem), and the refusals
    so far. `busy` keeps the guard's own path lookups from being checked again."""

    def __init__(self, project_root: str | None, *, deny_writes: bool = False):
        self.project_root = project_root
        self.deny_writes = deny_writes
        self.refusals: list[Refusal] = []
        self.busy = False
        self.module_files: frozenset[str] | None = None
        self.probed = False


class _Watching:
    def __init__(self, watch: Watch):
        self.watch = watch
        self.outer = None

    def __enter__(self) -> Watch:
        install()
        ident = _thread.get_ident()
        self.outer = _watches.get(ident)
        _watches[ident] = self.watch
        return self.watch

    def __exit__(self, *exc_info):
        ident = _thread.get_ident()
        if self.outer is None:
            _watches.pop(ident, None)
        else:
            _watches[ident] = self.outer
        return False


def watching(watch: Watch) -> _Watching:
    """A `with` block during which the current thread's audited actions are checked."""
    return _Watching(watch)


def install() -> None:
    if _installed[0]:
        return
    with _install_lock:
        if not _installed[0]:
            _add_hook()


def _add_hook() -> None:
    sys.addaudithook(_hook)
    # An existing hook may refuse new hooks (sys.addaudithook then adds nothing, silently): the
    # probe event reaches our hook only if it was added, and only on a watched thread.
    probe = Watch(None)
    ident = _thread.get_ident()
    _watches[ident] = probe
    try:
        sys.audit(PROBE_EVENT)
    finally:
        del _watches[ident]
    if not probe.probed:
        raise GuardUnavailable("the program's own audit hook refused the source guard, so no tool can run safely")
    _installed[0] = True


def _probed(watch, args):
    watch.probed = True
    return None


CHECKS = {**_EVENT_CHECKS, PROBE_EVENT: _probed}


def _hook(event, args, _watches=_watches, _get_ident=_thread.get_ident, _checks=CHECKS):
    if not _watches:  # no tool runs anywhere: the only work the program's own events cost
        return
    check = _checks.get(event)
    if check is None:
        return
    watch = _watches.get(_get_ident())
    if watch is None or watch.busy:
        return
    watch.busy = True
    try:
        refusal = check(watch, args)
    except Exception as exc:  # the guard fails closed: an action it cannot judge does not happen
        refusal = Refusal("source", f"{event} could not be checked ({type(exc).__name__}), so it was refused")
    finally:
        watch.busy = False
    if refusal is not None:
        watch.refusals.append(refusal)
        raise GuardError(refusal.message)
