"""The program never outlives its host (SPEC §2: the child is reaped, never orphaned), without a
thread of its own where the kernel can do it.

On Linux the kernel sends the interpreter SIGKILL when the host that started it dies
(prctl PR_SET_PDEATHSIG): nothing runs in the interpreter for it, and nothing of it reaches the
program (a fork's child does not inherit it). Elsewhere, or if prctl cannot be reached, the
caller keeps the reader thread, which ends the process when the channel closes without an
end-of-stream (reader.py).
"""

import os
import sys

__all__ = ["die_with_host"]

_PR_SET_PDEATHSIG = 1
_SIGKILL = 9
_RTLD_NOW = 2


def die_with_host(host_pid):
    """True when the kernel now ends this process as its host (`host_pid`) dies."""
    if not sys.platform.startswith("linux"):
        return False
    present = "_ctypes" in sys.modules
    try:
        # _ctypes alone, without the ctypes package and what it imports (a third of the cost):
        # prctl as a C function of the process's own symbols, returning an int.
        import _ctypes

        class _Process:
            _handle = _ctypes.dlopen(None, _RTLD_NOW)

        class _Function(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL

        if _Function(("prctl", _Process))(_PR_SET_PDEATHSIG, _SIGKILL, 0, 0, 0) != 0:
            return False
    except (ImportError, OSError, AttributeError, TypeError):
        return False
    finally:
        if not present:  # a program that imports ctypes gets its own, as under python3
            sys.modules.pop("_ctypes", None)
    if os.getppid() != host_pid:  # the host died before the kernel was told
        os.kill(os.getpid(), _SIGKILL)
    return True
