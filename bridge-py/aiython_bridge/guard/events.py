"""What each audited action asks of the source guard (SPEC §9), by audit event name.

Each check takes the thread's Watch and the event's arguments (CPython's audit events table)
and returns a Refusal, or None to let the action happen:
- file writes: `open` for writing (a mode with w/a/x/+, or os.open's write flags), `os.truncate`,
  `os.remove`, `os.rmdir`, `os.rename` (also os.replace), `os.link` / `os.symlink` (the new
  name), `os.mkdir`, `os.chmod`: refused on the program's source (protected.py); with
  `deny_writes`, refused everywhere but /dev and CPython's own __pycache__;
- processes: `subprocess.Popen`, `os.system`, `os.exec`, `os.spawn`, `os.posix_spawn`,
  `os.fork`, `os.forkpty`, `pty.spawn`, `os.startfile`: always refused.
multiprocessing's spawn and forkserver start methods start interpreters through
_posixsubprocess, which raises no audit event; its fork method raises `os.fork`.
Nothing here imports at run time: the bridge's modules are out of sys.modules while the program
runs (modules.py).
"""

from __future__ import annotations

import os

from . import protected

__all__ = ["CHECKS", "Refusal"]

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


class Refusal:
    """One refused action: `kind` is "source", "process" or "permission" (write_filesystem)."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        self.message = message


_refusal = Refusal


def _writes(mode, flags) -> bool:
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)


def _judge(watch, action: str, path, dir_fd=None, *, folder: bool = False):
    target = protected.resolve(path, dir_fd)
    reason = protected.why_protected(watch, target, path, folder=folder)
    shown = protected.shown(watch, target, path)
    if reason is not None:
        return _refusal("source", f"the source guard refused {action} {shown} ({reason}): AI tools may not change the "
                                  "program's source, its configuration or aiython's state; leave the file as it is")
    if watch.deny_writes and not protected.harmless_write(target):
        return _refusal("permission", f"{action} {shown} needs the write_filesystem permission")
    return None


def _open(watch, args):
    path, mode, flags = args[0], args[1], args[2]
    if not _writes(mode, flags):
        return None
    return _judge(watch, "writing", path)


def _remove(watch, args):
    return _judge(watch, "deleting", args[0], args[1])


def _rmdir(watch, args):
    return _judge(watch, "deleting", args[0], args[1], folder=True)


def _rename(watch, args):
    src, dst, src_fd, dst_fd = args[0], args[1], args[2], args[3]
    return _judge(watch, "renaming", src, src_fd, folder=True) or _judge(watch, "replacing", dst, dst_fd)


def _truncate(watch, args):
    return _judge(watch, "truncating", args[0])


def _link(watch, args):
    return _judge(watch, "creating a link at", args[1], args[3] if len(args) > 3 else None)


def _symlink(watch, args):
    return _judge(watch, "creating a link at", args[1], args[2] if len(args) > 2 else None)


def _mkdir(watch, args):
    return _judge(watch, "creating the folder", args[0], args[2] if len(args) > 2 else None)


def _chmod(watch, args):
    return _judge(watch, "changing the mode of", args[0], args[2] if len(args) > 2 else None)


def _process(event):
    def check(watch, args):
        shown = _command(event, args)
        return _refusal("process", f"the source guard refused starting a process ({event}{shown}): AI tools may not "
                                   "start processes; compute the result in Python in the frame instead")
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
            text = " ".join(os.fsdecode(a) if type(a) in (str, bytes) else "…" for a in argv[:8])
        elif type(argv) in (str, bytes):
            text = os.fsdecode(argv)
        else:
            return ""
        return ": " + (text if len(text) <= 120 else text[:117] + "…")
    except Exception:
        return ""


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
    "os.mkdir": _mkdir,
    "os.chmod": _chmod,
    **{event: _process(event) for event in _PROCESS_EVENTS},
}
