"""Bridge frames are hidden from tracebacks of uncaught exceptions; program frames stay."""

import os
import sys
import unittest

from aiython_bridge.program import tracebacks

HERE = os.path.abspath(__file__)


def _program_code(source, name="<program>"):
    return compile(source, name, "exec")


class StripTest(unittest.TestCase):
    def _raise_through(self, program_source, bridge_call=None):
        namespace = {"bridge_call": bridge_call}
        try:
            exec(_program_code(program_source), namespace)
        except Exception as exc:  # noqa: BLE001 - the test inspects any exception
            return exc
        self.fail("the program did not raise")

    def test_leading_bridge_frames_are_removed(self):
        # Pretend this test file is part of the bridge: its frames lead the traceback.
        original = tracebacks._BRIDGE_DIR
        tracebacks._BRIDGE_DIR = os.path.dirname(HERE) + os.sep
        try:
            exc = self._raise_through("def f():\n    raise ValueError('x')\nf()\n")
            tb = tracebacks.strip(exc.__traceback__)
            names = []
            while tb is not None:
                names.append(tb.tb_frame.f_code.co_filename)
                tb = tb.tb_next
            self.assertEqual(names, ["<program>", "<program>"])
        finally:
            tracebacks._BRIDGE_DIR = original

    def test_trailing_bridge_frames_are_cut(self):
        original = tracebacks._BRIDGE_DIR
        tracebacks._BRIDGE_DIR = os.path.dirname(HERE) + os.sep

        def bridge_call():
            raise RuntimeError("raised inside the runtime")

        try:
            exc = self._raise_through("x = bridge_call()\n", bridge_call)
            tb = tracebacks.strip(exc.__traceback__)
            self.assertEqual(tb.tb_frame.f_code.co_filename, "<program>")
            self.assertIsNone(tb.tb_next)
        finally:
            tracebacks._BRIDGE_DIR = original

    def test_hook_passes_stripped_traceback_to_the_programs_hook(self):
        seen = []
        original_hook = sys.excepthook

        def program_hook(t, v, tb):
            seen.append((t, v, tb))

        sys.excepthook = program_hook
        try:
            tracebacks.hide_bridge_frames_when_uncaught()
            exc = ValueError("boom")
            sys.excepthook(ValueError, exc, None)
            self.assertEqual(seen, [(ValueError, exc, None)])
            self.assertIs(sys.excepthook, program_hook)  # restored after one use
        finally:
            sys.excepthook = original_hook


if __name__ == "__main__":
    unittest.main()
