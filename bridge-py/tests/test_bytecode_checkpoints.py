"""The bytecode checkpoint path (recovery/bytecode/instrument.py, 3.11 only) against the AST
path (recovery/instrument.py): each recovery scenario runs as an imported module's code under
both, and everything the program or its user can observe must be the same — output, the
requests the decision source got, the exception that ended the program (type, message, notes,
__context__ chain, traceback text and line numbers), sys.exception() after. On other versions
only the AST path exists and these tests are skipped.
"""

import textwrap
import unittest

from aiython_bridge import pycompat
from tests.bytecode_scenarios import SCENARIOS, SHOW, observe


@unittest.skipUnless(pycompat.BYTECODE_CHECKPOINTS, "the bytecode path is 3.11's")
class SameBehaviour(unittest.TestCase):
    def test_every_scenario_is_observably_the_same_under_both_paths(self):
        for name, (body, decide, expected) in SCENARIOS.items():
            with self.subTest(name):
                source = SHOW + textwrap.dedent(body)
                by_ast = observe(self, "ast", source, decide)
                by_bytecode = observe(self, "bytecode", source, decide)
                self.assertEqual(by_bytecode, by_ast)
                if expected is not None:
                    self.assertEqual(by_bytecode[0], expected)
                if name != "recursion":
                    self.assertTrue(by_bytecode[1], "the scenario consulted the decision source")

    def test_endings_are_the_documented_ones(self):
        _, requests, ending = observe(self, "bytecode", SHOW + textwrap.dedent(SCENARIOS["recursion"][0]),
                                      SCENARIOS["recursion"][1])
        self.assertEqual(requests, [])
        self.assertTrue(ending[0].startswith("RecursionError"))
        self.assertEqual(ending[2], [], "no handler ran into the recursion limit on the way out")
        out, requests, ending = observe(self, "bytecode", SHOW + textwrap.dedent(SCENARIOS["reraise with the note"][0]),
                                        SCENARIOS["reraise with the note"][1])
        self.assertEqual(ending[1], ["aiython: not recovered: b is zero by design"])
        self.assertEqual(ending[3][-1], ("ratio", 3 + SHOW.count("\n")))
        self.assertIn("    return a / b\n           ~~^~~\n", ending[4])
        out, requests, ending = observe(self, "bytecode", SHOW + textwrap.dedent(SCENARIOS["base exception during a retry"][0]),
                                        SCENARIOS["base exception during a retry"][1])
        self.assertEqual(ending[0], "KeyboardInterrupt('second')")
        self.assertEqual(ending[2][0], "ValueError(\"invalid literal for int() with base 10: 'first'\")")


if __name__ == "__main__":
    unittest.main()
