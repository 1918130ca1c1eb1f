"""Checkpoint instrumentation (SPEC §4.2) changes nothing when nothing fails: every program here
runs twice, compiled as CPython would and with a checkpoint on every statement §4.2 selects,
and both runs must print the same (and fail the same way, traceback text included). Also the
transform's own rules: which statements are wrapped, names that never leak, spans that match.
Run under 3.11, 3.12 and 3.13. The harness is program_harness.py; the programs
instrument_programs.py.
"""

import ast
import builtins
import textwrap
import unittest

from aiython_bridge.recovery import selection
from tests.program_harness import Program, program_traceback
from tests.instrument_programs import SAME_OUTPUT


class SameBehaviourWhenNothingFails(unittest.TestCase):
    def test_each_program_prints_the_same_instrumented(self):
        for label, source in SAME_OUTPUT.items():
            with self.subTest(label):
                program = Program(self, source)
                plain_out, plain_error = program.run(instrumented=False)
                self.assertIsNone(plain_error, label)
                out, error = program.run(instrumented=True)
                self.assertIsNone(error, label)
                self.assertEqual(out, plain_out, label)
                self.assertGreater(len(program.table), 0)
                self.assertEqual(program.requests, [])

    def test_a_non_recoverable_failure_has_the_same_traceback_text(self):
        program = Program(self, """
            class Stop(BaseException):
                pass
            def inner(values):
                total = sum(values) + values[0] // 0 if False else None
                raise Stop("deep " + str(len(values)))
            def outer():
                result = inner([1, 2, 3])
                return result
            outer()
        """)
        _, plain_error = program.run(instrumented=False)
        _, error = program.run(instrumented=True)
        self.assertEqual(type(error).__name__, "Stop")
        self.assertEqual(program_traceback(error), program_traceback(plain_error))
        self.assertIn('line 6, in inner', program_traceback(error))

    def test_carets_of_a_failing_expression_are_unchanged(self):
        # Ineligible (an AIError subclass) so nothing is consulted; the carets must match CPython's.
        program = Program(self, """
            from aiython_bridge.errors import AIError
            def fail():
                raise AIError("no")
            data = {"a": 1}
            value = data["a"] + fail()
        """)
        _, plain_error = program.run(instrumented=False)
        _, error = program.run(instrumented=True)
        self.assertEqual(program_traceback(error), program_traceback(plain_error))
        self.assertRegex(program_traceback(error), r"\n +~*\^+\n")  # the caret line is there


class TransformRules(unittest.TestCase):
    def test_selection_follows_section_4_2(self):
        source = textwrap.dedent('''\
            """doc"""
            from __future__ import annotations
            import os
            def f(x):
                """doc"""
                y = x + 1
                try:
                    z = y
                except ValueError:
                    z = 0
                with open(os.devnull) as handle:
                    handle.read()
                if y:
                    del y
                return z
            for i in range(2):
                print(i)
        ''')
        tree = ast.parse(source)
        table = selection.select_checkpoints(tree, source, entry=True, name="m.py")
        chosen = [(c["span"]["line"], c["compound"]) for c in table]
        # top level: import, def (compound), for (compound); nested simple: y=, z=0 (a handler, not
        # the try body), del, return, print. Never: docstrings, __future__, try/with bodies.
        self.assertEqual(chosen, [(3, False), (4, True), (6, False), (10, False), (14, False), (15, False),
                                  (16, True), (17, False)])
        imported = selection.select_checkpoints(ast.parse(source), source, entry=False)
        self.assertEqual([c["span"]["line"] for c in imported], [6, 10, 14, 15, 17])

    def test_a_target_s_annotation_is_its_own_or_the_latest_before_it_in_its_scope(self):
        source = textwrap.dedent('''\
            count: int = 0
            count = 1
            def f(count: float, other):
                count = count + 1
                other = 2
                total: list[str] = []
                total = ["a"]
            class C:
                count = 3
                size: "Size" = 1
                size += 2
            late = 4
            late: bytes = b""
            (paren): int = 5
        ''')
        table = selection.select_checkpoints(ast.parse(source), source, entry=True, name="m.py")
        self.assertEqual([(c["target"], c["annotation"]) for c in table if c["target"] or c["statement"].startswith("(")], [
            ("count", "int"), ("count", "int"), ("count", "float"), ("other", None), ("total", "list[str]"),
            ("total", "list[str]"), ("count", None), ("size", "'Size'"), ("size", "'Size'"), ("late", None),
            ("late", "bytes"), (None, None),  # a parenthesised target is not made local by binding it: no target
        ])

    def test_spans_in_code_points_match_non_ascii_lines(self):
        source = 'def f():\n    s = "héllo"; t = s + "€"\n    return t\n'
        tree = ast.parse(source)
        table = selection.select_checkpoints(tree, source, entry=False)
        self.assertEqual([(c["span"]["column"], c["statement"]) for c in table],
                         [(4, 's = "héllo"'), (17, 't = s + "€"'), (4, "return t")])

    def test_no_name_is_bound_in_builtins_or_globals(self):
        program = Program(self, """
            import builtins
            before = set(vars(builtins))
            def f():
                return 1
            print(f(), sorted(k for k in globals() if not k.startswith("__")))
        """)
        names = set(vars(builtins))
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "1 ['before', 'builtins', 'f']\n")
        self.assertEqual(set(vars(builtins)), names)

    def test_functions_gain_no_local_variables(self):
        program = Program(self, """
            def f(a, b):
                total = a + b
                for i in range(3):
                    total += i
                return total
            async def g(x):
                y = await x
                return y
            class C:
                def m(self):
                    return super().m()
        """)
        program.run(instrumented=False)
        plain = program.namespace
        program.run(instrumented=True)
        for name, get in {"f": lambda ns: ns["f"], "g": lambda ns: ns["g"], "C.m": lambda ns: ns["C"].m}.items():
            code, plain_code = get(program.namespace).__code__, get(plain).__code__
            self.assertEqual(code.co_varnames, plain_code.co_varnames, name)
            self.assertEqual(code.co_cellvars + code.co_freevars, plain_code.co_cellvars + plain_code.co_freevars, name)

    def test_no_introduced_name_is_left_behind_after_a_recovery(self):
        program = Program(self, """
            class Config:
                port = missing_port
            def f():
                value = also_missing
                return sorted(locals())
            print(f(), sorted(k for k in vars(Config) if not k.startswith("__")))
            print(sorted(k for k in globals() if not k.startswith("__")))
        """, lambda request, op: op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": 1}}))
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "['value'] ['port']\n['Config', 'f']\n")
        self.assertEqual(len(program.requests), 2)

    def test_protected_ranges_cover_try_and_with_bodies_only(self):
        source = textwrap.dedent("""\
            try:
                a = 1
                b = 2
            except E:
                c = 3
            with x:
                d = 4
            e = 5
        """)
        self.assertEqual(selection.protected_ranges(ast.parse(source)), [[2, 3], [7, 7]])


if __name__ == "__main__":
    unittest.main()
