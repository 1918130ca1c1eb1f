"""frame_floor.alone: the program runs with nothing below its first frame, as python3's main
module (SPEC §2), and recurses as deep, while the caller's own code goes on afterwards. Each case
runs in an interpreter of its own (the caller's recursion counter stays changed for its thread,
as the boot script's does). Run under 3.11, 3.12 and 3.13.
"""

import os
import subprocess
import sys
import textwrap
import unittest

_BRIDGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_CALLER = textwrap.dedent("""
    import sys
    from _functools import partial
    from aiython_bridge.program import frame_floor

    PROGRAM = '''
    import sys, traceback
    below = sys._getframe().f_back
    stack = len(traceback.extract_stack())
    def depth(n):
        try:
            return depth(n + 1)
        except RecursionError:
            return n
    reached = depth(0)
    '''
    names = {"__name__": "__main__"}
    frame_floor.alone(partial(exec, compile(PROGRAM, "program.py", "exec"), names))()
    after = sys._getframe().f_code.co_name, (lambda: sys._getframe().f_back.f_code.co_name)()
    print(names["below"], names["stack"], names["reached"], *after)
""")

_PYTHON3 = "import sys; exec(compile(sys.argv[1], 'program.py', 'exec'))"


def _run(code, *args):
    env = dict(os.environ, PYTHONPATH=_BRIDGE_PARENT)
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=60)
    if done.returncode:
        raise AssertionError(done.stderr)
    return done.stdout.split()


class FrameFloorTest(unittest.TestCase):
    def test_the_program_has_no_frame_below_and_recurses_as_python3s_main_module(self):
        below, stack, reached, caller, caller_of_lambda = _run(_CALLER)
        self.assertEqual((below, stack), ("None", "1"))
        # python3 running the same module as its main program (-c's <module> frame, where exec
        # adds a level on 3.11 as the boot script's does) reaches the same depth.
        self.assertEqual(reached, str(self._python3_depth()))
        self.assertEqual((caller, caller_of_lambda), ("<module>", "<module>"), "the caller goes on, its own frames linked")

    def _python3_depth(self):
        program = textwrap.dedent("""
            def depth(n):
                try:
                    return depth(n + 1)
                except RecursionError:
                    return n
            print(depth(0))
        """)
        done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
        return int(done.stdout)


if __name__ == "__main__":
    unittest.main()
