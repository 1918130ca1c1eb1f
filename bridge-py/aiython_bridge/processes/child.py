"""A child's side of joining the run (docs/protocol.md, "Child processes").

`connect` opens a connection to the run folder's socket on a high close-on-exec descriptor
(`_socket` only: no module the program would see appears in sys.modules); `hello` is the
child's first frame, carrying the run's secret. `start_spawned` is the boot of an interpreter
started by the launcher or by a rewritten `subprocess` argv: `python [OPTIONS] BOOT FOLDER
PROGRAM...`, where PROGRAM is `-c CODE ARGS`, `-m MODULE ARGS` or `FILE ARGS`. It connects and says hello with
its program (the host answers `init` and `run`, as to the first interpreter); when the host
cannot be reached (the run has ended) it becomes exactly the python3 process it stands for.
"""

import os
import sys

from .. import protocol
from . import RunFolder, known_folder

__all__ = [
    "HIGH_FD", "become_plain", "connect", "hello", "is_multiprocessing_child", "program_of",
    "start_spawned",
]

HIGH_FD = 200


def connect(folder):
    import _socket
    import fcntl

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(folder.socket)
    except OSError:
        sock.close()
        raise
    fd = sock.detach()
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, HIGH_FD)
    os.close(fd)
    return high


def hello(secret, forked, program=None):
    info = sys.version_info
    child = {"secret": secret, "parent": os.getppid(), "forked": forked}
    if program is not None:
        child.update(program)
    return {
        "type": protocol.HELLO,
        "protocol": protocol.PROTOCOL_VERSION,
        "pid": os.getpid(),
        "python": {
            "version": "%d.%d.%d" % info[:3],
            "version_info": list(info[:3]),
            "executable": sys.executable,
            "implementation": sys.implementation.name,
        },
        "child": child,
    }


def program_of(argv, orig_argv):
    """target, argv and orig_argv of `BOOT FOLDER PROGRAM...` as python3 would have them."""
    rest = argv[2:]
    if rest[:1] == ["-c"] and len(rest) >= 2:
        target, args = {"kind": "code", "code": rest[1]}, rest[2:]
    elif rest[:1] == ["-m"] and len(rest) >= 2:
        target, args = {"kind": "module", "name": rest[1]}, rest[2:]
    elif rest[0].startswith("-m") and len(rest[0]) > 2:
        target, args = {"kind": "module", "name": rest[0][2:]}, rest[1:]
    else:
        target, args = {"kind": "file", "path": rest[0]}, rest[1:]
    at = next((i for i in range(1, len(orig_argv) - 1) if orig_argv[i] == argv[0] and orig_argv[i + 1] == argv[1]), None)
    orig = orig_argv[1:at] + orig_argv[at + 2:] if at is not None else orig_argv[1:]
    return {"target": target, "argv": args, "orig_argv": orig}


def start_spawned(folder_path):
    """The control descriptor of a spawned child and its hello; or the plain program."""
    program = program_of(sys.argv, sys.orig_argv)
    try:
        with open(os.path.join(folder_path, "secret"), encoding="ascii") as f:
            secret = f.read().strip()
        folder = RunFolder(folder_path, secret)
        fd = connect(folder)
    except OSError:
        become_plain(program)
    known_folder(folder, program)
    return fd, hello(secret, forked=False, program=program)


def become_plain(program=None):
    """Replace this process with the python3 process it stands for, outside the run."""
    program = program or program_of(sys.argv, sys.orig_argv)
    os.execv(sys.executable, [sys.executable, *program["orig_argv"]])


def is_multiprocessing_child(target):
    """A launcher child: multiprocessing's own bootstrap code (spawn_main, the forkserver)."""
    return target.get("kind") == "code" and target.get("code", "").startswith("from multiprocessing.")
