"""Stand-ins for the few functions through which a tool could end or break the run, or escape the
guard, with no audit event to refuse them by (SPEC §9). Installed with the audit hook, at the
first tool call, and never removed, like the hook: what a tool leaves behind may call them later.

- `os._exit`, `os.abort`, `signal.raise_signal`: a tool cannot end the program;
- `os.close`, `os.closerange`, `os.dup2`: nor close or replace fds 0–2 or the control channel;
- `_posixsubprocess.fork_exec`: multiprocessing's spawn and forkserver start interpreters
  through it with no `subprocess.Popen` event (`multiprocessing.util.spawnv_passfds`);
- `atexit.register`: a handler a tool registers runs under the guard at exit (reach.under_guard),
  builtins included (`atexit.register(os.remove, "main.py")` has no tool code to find);
- on 3.11, which has no audit event for starting a thread, `_thread.start_new_thread` (and its
  alias `start_new`, and threading's copy of it): as reach.py does from the event on 3.12+.

Each stand-in passes the program's own calls straight through (hook.acting() is None for them),
asking only what its arguments make necessary: `os.close(7)` costs a set lookup. It keeps the
built-in's name, qualified name, module and docstring; README "Known differences" says it is not
the built-in itself.
"""

from __future__ import annotations

import sys

from ..errors import GuardError
from . import reach
from .refusal import Refusal

__all__ = ["HOOK", "prepare"]

_prepared = [False]
HOOK = None  # hook.py, set once it is loaded (no import runs later: modules.py hides the bridge's)


def prepare() -> None:
    """Puts the stand-ins in place (once; hook.install() calls it)."""
    if _prepared[0]:
        return
    _prepared[0] = True
    posix = sys.modules["posix"]
    os = sys.modules.get("os")
    for name, make in (("_exit", _ends_run), ("abort", _ends_run), ("close", _closes), ("closerange", _closes_range),
                       ("dup2", _replaces)):
        original = getattr(posix, name, None)
        if original is not None:
            _replace((posix, os), name, make(f"os.{name}", original))
    signal_module = sys.modules.get("_signal")
    if signal_module is not None and hasattr(signal_module, "raise_signal"):
        _replace((signal_module, sys.modules.get("signal")), "raise_signal", _ends_run("signal.raise_signal", signal_module.raise_signal))
    posixsubprocess = _module("_posixsubprocess")
    if posixsubprocess is not None:
        _replace((posixsubprocess,), "fork_exec", _starts_process(posixsubprocess.fork_exec))
    atexit = _module("atexit")
    if atexit is not None:
        _replace((atexit,), "register", _registers_at_exit(atexit.register))
    thread = sys.modules["_thread"]
    if not hasattr(thread, "start_joinable_thread") and sys.version_info < (3, 12):
        start = _starts_thread(thread.start_new_thread)
        _replace((thread,), "start_new_thread", start)
        _replace((thread,), "start_new", start)
        if "threading" in sys.modules:
            sys.modules["threading"]._start_new_thread = start


def _module(name):
    module = sys.modules.get(name)
    if module is None:
        try:
            module = __import__(name)  # a built-in module: nothing else is imported
        except ImportError:
            return None
    return module


def _replace(modules, name, stand_in) -> None:
    for module in modules:
        if module is not None and hasattr(module, name):
            setattr(module, name, stand_in)


def _dressed(stand_in, original):
    for attribute in ("__name__", "__qualname__", "__module__", "__doc__"):
        try:
            setattr(stand_in, attribute, getattr(original, attribute))
        except (AttributeError, TypeError):
            pass
    return stand_in


def _refuse(watch, kind, message):
    refusal = Refusal(watch, kind, message)
    watch.refusals.append(refusal)
    raise GuardError(message)


def _acting():
    return HOOK.acting()


def _ends_run(shown, original):
    def stand_in(*args, **kwargs):
        watch = _acting()
        if watch is not None:
            _refuse(watch, "run", f"the source guard refused {shown}(): a tool cannot end the program; return from the "
                                  "tool, or end the block with an error outcome")
        return original(*args, **kwargs)
    return _dressed(stand_in, original)


def _kept(fd) -> bool:
    own = HOOK.watched()
    return type(fd) is int and (fd in (own.keep_fds if own is not None else ()) or fd in HOOK.deferred.keep_fds)


def _channel_refusal(shown, fd):
    watch = _acting()
    if watch is not None:
        _refuse(watch, "run", f"the source guard refused {shown} of descriptor {fd}: it is the program's standard stream or "
                              "aiython's channel, which no tool may close or replace")


def _closes(shown, original):
    def stand_in(fd, *args, **kwargs):
        if _kept(fd):
            _channel_refusal(shown, fd)
        return original(fd, *args, **kwargs)
    return _dressed(stand_in, original)


def _closes_range(shown, original):
    def stand_in(fd_low, fd_high, *args, **kwargs):
        own = HOOK.watched()
        kept = HOOK.deferred.keep_fds | (own.keep_fds if own is not None else frozenset())
        inside = sorted(fd for fd in kept if type(fd_low) is int and type(fd_high) is int and fd_low <= fd < fd_high)
        if inside:
            _channel_refusal(shown, inside[0])
        return original(fd_low, fd_high, *args, **kwargs)
    return _dressed(stand_in, original)


def _replaces(shown, original):
    def stand_in(fd, fd2, *args, **kwargs):
        if _kept(fd2):
            _channel_refusal(shown, fd2)
        return original(fd, fd2, *args, **kwargs)
    return _dressed(stand_in, original)


def _starts_process(original):
    def stand_in(*args, **kwargs):
        watch = _acting()
        if watch is not None:
            _refuse(watch, "process", "the source guard refused starting a process (_posixsubprocess.fork_exec: multiprocessing's "
                                      "spawn or forkserver): AI tools may not start processes; compute the result in Python instead")
        return original(*args, **kwargs)
    return _dressed(stand_in, original)


def _registers_at_exit(original):
    def stand_in(function, *args, **kwargs):
        watch = _acting()
        if watch is None:
            return original(function, *args, **kwargs)
        original(reach.under_guard(watch.copy(), function, args, kwargs))
        return function
    return _dressed(stand_in, original)


def _starts_thread(original):
    def stand_in(function, args, kwargs=None):
        watch = _acting()
        if watch is not None:
            refusal = reach.thread_start_refusal(watch, function)
            if refusal is not None:
                _refuse(watch, refusal.kind, refusal.message)
        return original(function, args) if kwargs is None else original(function, args, kwargs)
    return _dressed(stand_in, original)
