"""Child processes of the program are part of the run (SPEC §8).

A child made by os.fork() (multiprocessing's fork start method, ProcessPoolExecutor, the
forkserver's workers), a multiprocessing spawn or forkserver interpreter, and a `subprocess`
running sys.executable on a project file each talk to the same host, over their own connection
to the run folder's Unix socket, with the run's secret (docs/protocol.md, "Child processes"):

- forked.py: after os.fork() the child closes its copy of the parent's channel and connects
  anew the first time it needs the host (a block, a plan, a consultation);
- spawned.py: an audit hook (invisible to the program) that starts spawned interpreters with the
  bridge in them: multiprocessing's executable becomes the run folder's launcher, and a
  `subprocess` argv running a project file gets the boot script in front of the file;
- child.py: the child's side of the handshake (connect, hello with the secret);
- spawn_main.py: in a multiprocessing child, the parent's main module (`__mp_main__`) gets the
  parent's plan, as any project module does.

The run folder (0700, made by the host at the first `children` request) holds the socket, the
secret (0600) and the launcher. A forked child knows it from memory; a spawned one from its
argv, which names the folder and never the secret. Nothing here runs before the program asks
for a process: a run that never forks or spawns never asks.
"""

import _thread
import os

from .. import protocol

__all__ = [
    "RunFolder", "after_fork_in_child", "current_server", "install", "known_folder",
    "known_run_folder", "run_folder",
]


class RunFolder:
    def __init__(self, path, secret):
        self.path = path
        self.secret = secret

    @property
    def socket(self):
        return os.path.join(self.path, "sock")


class _State:
    server = None
    folder = None  # RunFolder, once known
    program = None  # a spawned child's {target, argv, orig_argv}
    asked = False
    lock = _thread.allocate_lock()


def install(server, options):
    """At program start (the fork hooks are server.py's): the audit hook, and in a multiprocessing
    child the hook that gives the parent's main module its plan."""
    _State.server = server
    if not options.get("model_configured") and _State.program is None:
        return  # no model: nothing to hook until the mailbox asks (spawned.ensure_installed)
    from . import spawned

    spawned.install(server, options)
    if _State.program is None:
        return  # the run's first process: no parent's main module to plan
    from . import child

    if child.is_multiprocessing_child(_State.program["target"]):
        from . import spawn_main

        spawned.ensure_installed()  # the main module's exec is settled by the hook
        spawn_main.install(server, options)


def current_server():
    """The server of this process of the run (the mailbox's way to the host), or None."""
    return _State.server


def known_folder(folder, program):
    """A spawned child learns its run folder from its argv, and what it runs (child.py)."""
    _State.folder = folder
    _State.program = program


def known_run_folder():
    """The run folder if this process knows it already, else None: the host is not asked."""
    return _State.folder


def run_folder(server=None):
    """The run folder, asking the host the first time (docs/protocol.md `children`); None when
    there is no host to ask (the run has ended, or this process never had one)."""
    if _State.folder is not None:
        return _State.folder
    server = server or _State.server
    if server is None or server.gone or server.exiting:
        return None
    with _State.lock:
        if _State.folder is None and not _State.asked:
            _State.asked = True
            import sys

            reply = server.request_here({"type": protocol.CHILDREN, "executable": sys.executable})
            value = reply.get("value") if reply.get("ok") else None
            if isinstance(value, dict):
                _State.folder = RunFolder(value["dir"], value["secret"])
    return _State.folder


def after_fork_in_child():
    """A forked child asks nothing itself: its folder is its parent's (or there is none)."""
    _State.lock = _thread.allocate_lock()
    _State.asked = _State.folder is None
