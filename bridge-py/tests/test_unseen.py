"""Checkpoint handlers out of sight of the program's tracers and profilers (recovery/unseen.py,
recovery/handler_lines.py): a program run plainly and instrumented gives its sys.settrace and
sys.setprofile functions the same events, and a debugger's jump from an `except` block to a
checkpointed line lands where it does plainly (a consultation under a tracer and a profiler:
test/invisible-tracers.test.ts, through the host). Run under 3.11, 3.12, 3.13.
"""

import os
import subprocess
import sys
import textwrap
import unittest

BRIDGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Each program runs in an interpreter of its own: in this one, what earlier tests left (the guard's
# audit hook, which cannot be removed) can stall a program under a trace and a profile function.
DRIVER = """
import atexit, sys
from tests.program_harness import Program
class Case:
    def addCleanup(self, function, *args):
        atexit.register(function, *args)
out, error = Program(Case(), sys.stdin.read()).run(instrumented=sys.argv[1] == "instrumented")
print(out, end="")
print("ended by", repr(error))
"""


def run(source: str, mode: str) -> str:
    """The program's output and how it ended, run `plain` or `instrumented` (checkpoints, no model)."""
    done = subprocess.run([sys.executable, "-c", DRIVER, mode], input=textwrap.dedent(source), capture_output=True,
                          text=True, cwd=BRIDGE, timeout=120)
    if done.returncode:
        raise AssertionError(done.stderr)
    return done.stdout

WATCHED = """
    import sys
    events = []
    def tracer(frame, event, arg):
        events.append((event, frame.f_code.co_name, frame.f_lineno))
        return tracer
    def profiler(frame, event, arg):
        events.append(("profile " + event, frame.f_code.co_name, getattr(arg, "__name__", None)))
    def parse(text):
        value = int(text)
        return value
    def parse_all(texts):
        out = []
        for text in texts:
            try:
                out.append(parse(text))
            except ValueError:
                out.append(None)
        return out
    sys.settrace(tracer)
    sys.setprofile(profiler)
    result = parse_all(["1", "x"])
    watching = sys.gettrace() is tracer, sys.getprofile() is profiler
    sys.setprofile(None)
    sys.settrace(None)
    print(result, watching)
    for event in events:
        print(*event)
"""


class Unseen(unittest.TestCase):
    def test_a_handled_failure_gives_the_events_of_a_plain_run(self):
        plain = run(WATCHED, "plain")
        self.assertIn("exception parse 10\n", plain)
        self.assertIn("profile c_call parse_all append\n", plain)
        self.assertTrue(plain.endswith("ended by None\n"), plain)
        self.assertEqual(run(WATCHED, "instrumented"), plain)

    @unittest.skipIf(sys.version_info >= (3, 14), "jump rules of 3.11-3.13")
    def test_a_jump_from_an_except_block_to_a_checkpointed_line_lands_as_plainly(self):
        source = """
            import sys
            output = []
            def jumped():
                try:
                    1/0
                except ZeroDivisionError:
                    output.append(7)
                    output.append(8)
                finally:
                    output.append(10)
                output.append(11)
            def tracer(frame, event, arg):
                if frame.f_code is jumped.__code__ and event == "line" and frame.f_lineno == 9:
                    frame.f_lineno = 11
                return tracer
            sys.settrace(tracer)
            jumped()
            sys.settrace(None)
            print(output)
        """
        plain = run(source, "plain")
        self.assertEqual(plain, "[7, 10, 11]\nended by None\n")
        self.assertEqual(run(source, "instrumented"), plain)


if __name__ == "__main__":
    unittest.main()
