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

from aiython_bridge.recovery import instrument, selection
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

    def test_a_table_naming_unsuitable_statements_is_ignored_for_them(self):
        source = '"""doc"""\nfrom __future__ import annotations\ntry:\n    x = 1\nexcept E:\n    pass\n'
        tree = ast.parse(source)
        table = [{"id": f"m:c{i}", "span": {"line": line, "column": col, "end_line": line, "end_column": 1},
                  "statement": "", "target": None, "annotation": None, "retry_allowed": True, "compound": False}
                 for i, (line, col) in enumerate([(1, 0), (2, 0), (4, 4), (6, 4), (99, 0)])]
        result = instrument.instrument(tree, table, source=source, entry=True)
        self.assertEqual(result.checkpoints, [])
        self.assertEqual(len(result.skipped), 5)
        self.assertEqual(ast.unparse(tree), ast.unparse(ast.parse(source)))

    def test_spans_in_code_points_match_non_ascii_lines(self):
        source = 'def f():\n    s = "héllo"; t = s + "€"\n    return t\n'
        tree = ast.parse(source)
        table = selection.select_checkpoints(tree, source, entry=False)
        self.assertEqual([(c["span"]["column"], c["statement"]) for c in table],
                         [(4, 's = "héllo"'), (17, 't = s + "€"'), (4, "return t")])
        result = instrument.instrument(ast.parse(source), table, source=source, entry=False)
        self.assertEqual([c["id"] for c in result.checkpoints], [c["id"] for c in table])

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

    def test_the_one_pass_transform_equals_the_table_applied(self):
        """instrument_selected (the bridge's preparation of a source that parses) gives what
        select_checkpoints followed by instrument gives: the same checkpoints, ranges, tree
        (positions included) and code, for each program here, as an entry program and a module."""
        sources = [textwrap.dedent(program) for program in SAME_OUTPUT.values()]
        sources.append('def f():\n    s = "héllo"; t = s + "€"\n    return t\n')
        for source in sources:
            for entry in (True, False):
                with self.subTest(source=source[:40], entry=entry):
                    tree = ast.parse(source)
                    table = selection.select_checkpoints(tree, source, entry=entry, name="m.py")
                    ranges = selection.protected_ranges(tree)
                    two_steps = instrument.instrument(tree, table, source=source, entry=entry)
                    one_tree = ast.parse(source)
                    one_pass, one_ranges = instrument.instrument_selected(one_tree, source=source, entry=entry, name="m.py")
                    self.assertEqual(one_pass.checkpoints, two_steps.checkpoints)
                    self.assertEqual(one_ranges, ranges)
                    self.assertEqual(ast.dump(one_tree, include_attributes=True), ast.dump(tree, include_attributes=True))
                    self.assertEqual(compile(one_tree, "m.py", "exec"), compile(tree, "m.py", "exec"))


if __name__ == "__main__":
    unittest.main()
