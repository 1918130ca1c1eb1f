"""Hides the bridge's frames from tracebacks of uncaught exceptions.

The program runs from the boot script (start/importlib_bootstrap.py), whose frame the
traceback of an exception leaving the program starts with, and AI blocks call into the bridge's
runtime. CPython prints an uncaught exception through `sys.excepthook`
using the exception's `__traceback__`; just before the exception leaves the interpreter's top
level, the current hook is wrapped once so that it receives a traceback without those frames,
and the program's own hook (if it set one) is what finally prints.
"""

import os
import sys

__all__ = ["all_bridge", "hide_bridge_frames_when_uncaught", "strip"]

# bridge-py/aiython_bridge/, every room of the bridge (this file is in program/).
_BRIDGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _is_bridge(tb):
    return tb.tb_frame.f_code.co_filename.startswith(_BRIDGE_DIR)


def strip(tb):
    # Leading frames: the boot script's, and any other bridge frame above the program's.
    while tb is not None and _is_bridge(tb):
        tb = tb.tb_next
    # Trailing frames: an error raised inside the runtime on behalf of a program line (AIError).
    last_program = None
    cursor = tb
    while cursor is not None:
        if not _is_bridge(cursor):
            last_program = cursor
        cursor = cursor.tb_next
    if last_program is not None and last_program.tb_next is not None and all_bridge(last_program.tb_next):
        last_program.tb_next = None
    return tb


def all_bridge(tb):
    while tb is not None:
        if not _is_bridge(tb):
            return False
        tb = tb.tb_next
    return True


def hide_bridge_frames_when_uncaught():
    program_hook = sys.excepthook

    def excepthook(exc_type, exc, tb):
        sys.excepthook = program_hook
        tb = strip(tb)
        if isinstance(exc, BaseException):
            exc.__traceback__ = tb
        program_hook(exc_type, exc, tb)

    sys.excepthook = excepthook
