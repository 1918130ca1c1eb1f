"""First code the host runs in the interpreter: say hello, refuse an old Python, then serve.

This file must parse and run on any Python 3 (no syntax newer than 3.6), because its job is to
tell the host which Python it is talking to before anything 3.11-only is imported. The host
starts the interpreter on start/importlib_bootstrap.py with the control socket on fd 3
(docs/protocol.md); a child of the run is started on the same
script with the run folder as its first argument and connects to the host itself
(processes/child.py); that script enters `with main():` (the
handshake, the plan, everything the run needs) and calls `hand_over()()` inside it: the
program runs, and an exception leaving it passes the context's __exit__.
"""

import os
import sys

__all__ = [
    "CONTROL_FD", "HIGH_FD", "HOST_PID", "MIN_VERSION", "PRESENT_AT_START", "START_ADDRESS_SPACE",
    "address_space", "hand_over", "main", "wait_for_host_close",
]

CONTROL_FD = 3
MIN_VERSION = (3, 11)
HIGH_FD = 200
# What the program would find in sys.modules under python3 too (modules.drop_start_extensions).
PRESENT_AT_START = frozenset(sys.modules)
# The host, read first: if it is gone by the time the bridge ties its life to it (host_watch.py),
# the parent is another process.
HOST_PID = os.getppid()


def _send_raw(fd, payload):
    # The 4-byte big-endian length, without struct and in a form Python 2 runs too (it only
    # hears why it is refused).
    n = len(payload)
    data = bytes(bytearray([(n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255])) + payload
    while data:
        n = os.write(fd, data)
        data = data[n:]


def _move_high(fd):
    try:
        import fcntl

        new_fd = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, HIGH_FD)
    except (ImportError, AttributeError, OSError):
        new_fd = os.dup(fd)  # close-on-exec by default since Python 3.4 (PEP 446)
    os.close(fd)
    return new_fd


def wait_for_host_close(fd, seconds=5.0):
    """Keep the channel open until the host closes it (it does on our end-of-stream): a host
    write racing our exit would otherwise fail with EPIPE and lose what we sent."""
    import select

    try:
        while select.select([fd], [], [], seconds)[0] and os.read(fd, 65536):
            pass
    except (OSError, ValueError):
        pass


def address_space():
    """Bytes of this process's address space (Linux /proc), or None where it cannot be read."""
    try:
        fd = os.open("/proc/self/statm", os.O_RDONLY)
        try:
            return int(os.read(fd, 64).split()[0]) * os.sysconf("SC_PAGE_SIZE")
        finally:
            os.close(fd)
    except (OSError, ValueError, IndexError):
        return None


# The interpreter's own address space before the bridge adds to it: a memory limit (SPEC section 9)
# counts the program's part only (program/runner.py).
START_ADDRESS_SPACE = address_space()


def _encode_hello(hello):
    """The hello as JSON text; without the json package where the bridge can run (its import is
    a good part of the bridge's start-up), with it on an older Python, which only hears why not."""
    if tuple(sys.version_info[:2]) >= MIN_VERSION:
        from aiython_bridge.json_codec import encode

        return encode(hello, ensure_ascii=True)
    import json

    return json.dumps(hello)


def main():
    if len(sys.argv) > 1:
        # A child of the run: `python [OPTIONS] BOOT FOLDER PROGRAM...` (processes/child.py).
        from aiython_bridge.processes.child import start_spawned

        control, hello = start_spawned(sys.argv[1])
        _send_raw(control, _encode_hello(hello).encode("utf-8"))
        from aiython_bridge.program.runner import ProgramContext
        from aiython_bridge.server import serve

        return ProgramContext(serve(control, role="child"))

    # Move it to a high close-on-exec descriptor (out of the way of a program's own dup2 onto
    # small numbers) and free 3, so the program's first open() gets fd 3 as under python3.
    control = _move_high(CONTROL_FD)

    info = sys.version_info
    hello = {
        "type": "hello",
        "protocol": 9,
        "pid": os.getpid(),
        "python": {
            "version": "%d.%d.%d" % (info[0], info[1], info[2]),
            "version_info": [info[0], info[1], info[2]],
            "executable": sys.executable,
            "implementation": getattr(getattr(sys, "implementation", None), "name", "cpython"),
        },
    }
    _send_raw(control, _encode_hello(hello).encode("utf-8"))
    if tuple(info[:2]) < MIN_VERSION:
        _send_raw(control, b"")  # end of stream; the host explains the refusal
        wait_for_host_close(control)
        os._exit(0)

    from aiython_bridge.program.runner import ProgramContext
    from aiython_bridge.server import serve

    return ProgramContext(serve(control, role="main"))


def hand_over():
    """The callable that runs the program; from here the bridge's modules are out of sys.modules."""
    from aiython_bridge import modules
    from aiython_bridge.program.runner import ProgramContext

    modules.hide()
    modules.drop_start_extensions(PRESENT_AT_START)
    return ProgramContext.current.program
