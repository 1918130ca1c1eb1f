"""os.fork() children (SPEC §8): the child never uses its parent's channel.

Before a fork the parent makes sure it knows the run folder (one `children` request, the first
time only), if it speaks with the host at all. In the child, the copy of the parent's channel is closed at once and replaced by a
ForkedChannel, which connects to the run folder's socket the first time the child sends
anything and then starts the child's own reader thread: a forked child that never reaches a
block, a consultation or a project import never connects. Locks and tables the parent's other
threads may have held at the fork are made anew.
"""

import _thread
import os
import sys

from .. import modules
from ..channel import Channel
from . import after_fork_in_child as _folder_after_fork, fork_warning, known_run_folder, run_folder

__all__ = ["ForkedChannel", "after_fork_in_child", "after_fork_in_parent", "before_fork"]


def before_fork(server):
    # Without a model, a run that has not spoken with the host since the program started (no
    # mailbox) asks nothing: its child needs no host. With one, the question is answered on this
    # thread if no reader runs (server.request_here), so CPython sees no other thread at the fork.
    if server.exiting or server.gone or os.getpid() != server.pid:
        return
    if not server.reading and not server.options.get("model_configured"):
        return
    try:
        run_folder(server)
        fork_warning.before_fork(_aiython_threads(server))
    except Exception:  # noqa: BLE001 - a fork must never fail because of the bridge
        pass


def _aiython_threads(server):
    """The bridge's threads alive now: the reader, once started."""
    return 1 if server.reader_ident is not None and server.reader_ident in sys._current_frames() else 0


def after_fork_in_parent():
    fork_warning.after_fork(child=False)


def after_fork_in_child(server):
    fork_warning.after_fork(child=True)
    modules.after_fork_in_child()
    server.channel.close_in_child()
    _folder_after_fork()
    folder = known_run_folder()
    server.reset_after_fork(ForkedChannel(folder, server) if folder is not None else None)
    pauses = modules.loaded("aiython_bridge.pauses.pause")
    if pauses is not None:
        pauses.after_fork_in_child()


class ForkedChannel:
    """Channel's interface, connected on first use (the child's hello goes first)."""

    def __init__(self, folder, server):
        self._folder = folder
        self._server = server
        self._lock = _thread.allocate_lock()
        self._channel = None
        self.closed = False

    @property
    def connected(self):
        return self._channel is not None

    @property
    def fd(self):
        return self._channel.fd if self._channel is not None else -1

    def _connect(self):
        failed = False
        with self._lock:
            if self._channel is None and not self.closed:
                child = modules.load("aiython_bridge.processes.child")

                try:
                    channel = Channel(child.connect(self._folder))
                    channel.send(child.hello(self._folder.secret, forked=True))
                except OSError:
                    self.closed = failed = True
                else:
                    self._channel = channel
                    self._server.start_reader()
        if failed:  # outside the lock: failing the waiters answers them on this channel
            self._server.host_ended()
        return self._channel

    def send(self, message):
        channel = self._connect()
        if channel is not None:
            channel.send(message)

    def send_all(self, messages):
        channel = self._connect()
        if channel is not None:
            channel.send_all(messages)

    def send_end_of_stream(self):
        if self._channel is not None:
            self._channel.send_end_of_stream()

    def recv(self):
        return self._channel.recv()

    def close_in_child(self):
        self.closed = True
        if self._channel is not None:
            self._channel.close_in_child()
