"""What each audited action asks of the source guard (SPEC §9), by audit event name.

Each check takes the event's arguments (CPython's audit events table) and `acting()`, which gives
the Watch the event is judged by (None: the program's own code, never refused); it reads its
arguments first and asks `acting()` only for an action it would refuse. It returns a Refusal,
or None to let the action happen:
- files: `open` for writing (a mode with w/a/x/+, or os.open's write flags), `os.truncate`,
  `os.remove`, `os.rmdir`, `os.rename` (also os.replace), `os.link` (either name: a hard link to
  `main.py` is `main.py`) / `os.symlink`, `os.mkdir`, `os.chmod`, `os.chown`, `os.utime`,
  `sqlite3.connect`: refused on the program's source (protected.py); with `deny_writes`, refused
  everywhere but /dev. Writes into `__pycache__` are allowed to the import system alone
  (importlib's `_write_atomic`), so a tool cannot plant bytecode that python3 would run later.
  Opening the descriptor of aiython's state folder, or one of `keep_fds` by number, is refused;
- processes: `subprocess.Popen`, `os.system`, `os.exec`, `os.spawn`, `os.posix_spawn`,
  `os.fork`, `os.forkpty`, `pty.spawn`, `os.startfile`: always refused (patches.py covers
  `_posixsubprocess.fork_exec`, which multiprocessing calls without an event);
- the run itself (patches.py covers `os._exit` and closing descriptors, which raise no event):
  signalling this process, its parent or its process group (`os.kill`, `os.killpg`,
  `signal.pthread_kill`);
- the guard's reach (reach.py): ctypes' foreign functions and raw memory, gc's views of every
  object, a bridge function's code or defaults, threads a tool starts, code a tool makes.
Nothing here imports at run time: the bridge's modules are out of sys.modules while the program
runs (modules.py).
"""

from __future__ import annotations

import posix

from . import protected, reach
from .refusal import Refusal

__all__ = ["CHECKS"]

_WRITE_FLAGS = posix.O_WRONLY | posix.O_RDWR | posix.O_APPEND | posix.O_CREAT | posix.O_TRUNC
_SOURCE_ADVICE = "AI tools may not change the program's source, its configuration, installed packages or aiython's state; leave the file as it is"


def _judge(acting, action: str, path, dir_fd=None, *, folder: bool = False, importer=False):
    watch = acting()
    if watch is None:
        return None
    target = protected.resolve(path, dir_fd)
    if importer and protected.in_bytecode_cache(target) and reach.quietly_refused():
        return Refusal(watch, "source", "a tool's import does not write CPython's bytecode cache", quiet=True)
    reason = protected.why_protected(watch, target, path, folder=folder)
    if reason is None and protected.linked_to_protected(watch, target):
        reason = "another name of a project module"
    if reason is not None:
        shown = protected.shown(watch, target, path)
        return Refusal(watch, "source", f"the source guard refused {action} {shown} ({reason}): {_SOURCE_ADVICE}")
    if watch.deny_writes and not protected.harmless_write(target):
        return Refusal(watch, "permission", f"{action} {protected.shown(watch, target, path)} needs the write_filesystem permission")
    return None


def _open(args, acting, _flags=_WRITE_FLAGS, _state=protected.STATE_DIR, _state_bytes=protected.STATE_DIR.encode()):
    path, mode, flags = args[0], args[1], args[2]
    # Inline, not _writes(): every open() of the program comes here once a tool has run.
    if type(mode) is str:
        writes = "w" in mode or "a" in mode or "+" in mode or "x" in mode
    else:
        writes = type(flags) is int and flags & _flags != 0
    if type(path) is int:
        watch = acting()
        if watch is not None and path in watch.keep_fds:
            return Refusal(watch, "run", f"the source guard refused opening descriptor {path} by number: it is the program's "
                           "standard stream or aiython's channel, which no tool may close; use sys.stdout or print")
    if writes:
        return _judge(acting, "writing", path, importer=True)
    # A descriptor of the state folder would reach the journal by a bare name.
    if (type(path) is str and _state in path) or (type(path) is bytes and _state_bytes in path):
        return _state_folder(acting, "opening", path)
    return None


def _chdir(args, acting):
    return _state_folder(acting, "changing the directory to", args[0]) if protected.names_state(args[0]) else None


def _state_folder(acting, action, path):
    target = protected.resolve(path)
    if not (protected.is_folder(target) and protected.STATE_DIR in target.split("/")):
        return None
    watch = acting()
    if watch is None:
        return None
    return Refusal(watch, "source", f"the source guard refused {action} {protected.shown(watch, target, path)} (aiython's project "
                   f"state): {_SOURCE_ADVICE}")


def _remove(args, acting):
    return _judge(acting, "deleting", args[0], args[1], importer=True)


def _rmdir(args, acting):
    return _judge(acting, "deleting", args[0], args[1], folder=True)


def _rename(args, acting):
    src, dst, src_fd, dst_fd = args[0], args[1], args[2], args[3]
    return (_judge(acting, "renaming", src, src_fd, folder=True, importer=True)
            or _judge(acting, "replacing", dst, dst_fd, importer=True))


def _truncate(args, acting):
    return _judge(acting, "truncating", args[0])


def _link(args, acting):
    src_fd, dst_fd = (args[2], args[3]) if len(args) > 3 else (None, None)
    return _judge(acting, "linking", args[0], src_fd) or _judge(acting, "creating a link at", args[1], dst_fd)


def _symlink(args, acting):
    return _judge(acting, "creating a link at", args[1], args[2] if len(args) > 2 else None)


def _at_path(action, fd_index):
    def check(args, acting):
        return _judge(acting, action, args[0], args[fd_index] if len(args) > fd_index else None)
    return check


def _sqlite_connect(args, acting):
    database = args[0]
    if type(database) is str and database.startswith("file:"):
        database = database[5:].partition("?")[0]
    if database in (":memory:", "", b""):
        return None
    return _judge(acting, "opening the database", database)


def _process(event):
    def check(args, acting):
        watch = acting()
        if watch is None:
            return None
        return Refusal(watch, "process", f"the source guard refused starting a process ({event}{_command(event, args)}): "
                                         "AI tools may not start processes; compute the result in Python in the frame instead")
    return check


def _command(event, args) -> str:
    """A short spelling of the command, from the event's arguments (never calling program code)."""
    try:
        if event in ("subprocess.Popen", "os.exec", "os.posix_spawn"):
            argv = args[1]
        elif event == "os.spawn":
            argv = args[2]
        elif event in ("os.system", "pty.spawn", "os.startfile"):
            argv = args[0]
        else:
            return ""
        if type(argv) in (list, tuple):
            text = " ".join(protected.decode(a) if type(a) in (str, bytes) else "…" for a in argv[:8])
        elif type(argv) in (str, bytes):
            text = protected.decode(argv)
        else:
            return ""
        return ": " + (text if len(text) <= 120 else text[:117] + "…")
    except Exception:
        return ""


def _signals_run(event):
    """Signals that would end or break the run: to this process, its parent, its group, or all."""
    def check(args, acting):
        target, signal = args[0], args[1]
        if signal == 0:
            return None
        if event == "signal.pthread_kill":
            hits = True
        elif event == "os.killpg":
            hits = target in (0, posix.getpgrp())
        else:
            hits = target <= 0 or target in (posix.getpid(), posix.getppid())
        watch = acting() if hits else None
        if watch is None:
            return None
        return Refusal(watch, "run", f"the source guard refused sending signal {signal} ({event}): a tool may not end or "
                                     "interrupt the run; return from the tool instead")
    return check


_PROCESS_EVENTS = ("subprocess.Popen", "os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork",
                   "os.forkpty", "pty.spawn", "os.startfile")

CHECKS = {
    "open": _open,
    "os.remove": _remove,
    "os.rmdir": _rmdir,
    "os.rename": _rename,
    "os.truncate": _truncate,
    "os.link": _link,
    "os.symlink": _symlink,
    "os.mkdir": _at_path("creating the folder", 2),
    "os.chmod": _at_path("changing the mode of", 2),
    "os.chown": _at_path("changing the owner of", 3),
    "os.utime": _at_path("changing the times of", 3),
    "sqlite3.connect": _sqlite_connect,
    "os.chdir": _chdir,
    "os.kill": _signals_run("os.kill"),
    "os.killpg": _signals_run("os.killpg"),
    "signal.pthread_kill": _signals_run("signal.pthread_kill"),
    **{event: _process(event) for event in _PROCESS_EVENTS},
    **reach.CHECKS,
}
