"""Checkpoint instrumentation (SPEC §4.2) changes nothing when nothing fails: every program here
runs twice, compiled as CPython would and with a checkpoint on every statement §4.2 selects,
and both runs must print the same (and fail the same way, traceback text included). Also the
transform's own rules: which statements are wrapped, names that never leak, spans that match.
Run under 3.11, 3.12 and 3.13. The harness (Program) is shared with test_recovery.
"""

import ast
import builtins
import contextlib
import io
import os
import shutil
import sys
import tempfile
import textwrap
import traceback
import unittest

from aiython_bridge.program_code import compile_plan
from aiython_bridge.recovery import instrument, selection
from aiython_bridge.recovery.checkpoints import CheckpointRuntime
from tests.support import LocalDecisions


def refuse(request, op):
    raise AssertionError(f"unexpected consultation at {request['block_id']}: {request['recovery']}")


class Program:
    """A program in a temporary project folder, run plainly or instrumented with a fake decision
    source (`decide(request, op)`, see tests/support.py) in place of the host.

    The handlers hold the runtime as a constant, so a generator the program left suspended can be
    closed by the garbage collector after the test."""

    def __init__(self, test, source, decide=refuse, *, name="prog.py"):
        self.source = textwrap.dedent(source)
        self.root = tempfile.mkdtemp(prefix="aiython-recovery-")
        test.addCleanup(shutil.rmtree, self.root, True)
        self.path = os.path.join(self.root, name)
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(self.source)
        self.requests = []

        def recording(request, op):
            self.requests.append(request)
            return decide(request, op)

        self.runtime = CheckpointRuntime(LocalDecisions(recording), project_root=self.root)
        self.runtime.callers.top_codes.add(Program.run.__code__)  # this harness runs the program
        self.namespace = None
        self.table = None

    def compile(self, instrumented):
        if not instrumented:
            return compile(self.source, self.path, "exec", dont_inherit=True)
        tree = ast.parse(self.source, self.path)
        self.table = selection.select_checkpoints(tree, self.source, entry=True, name="prog.py")
        return compile_plan(self.source, self.path, {"checkpoints": self.table}, checkpoints=self.runtime, entry=True)

    def run(self, instrumented=True):
        """(stdout, the exception that ended the program or None)."""
        code = self.compile(instrumented)
        self.namespace = {"__name__": "__main__", "__file__": self.path, "__builtins__": builtins}
        out = io.StringIO()
        error = None
        with contextlib.redirect_stdout(out):
            try:
                exec(code, self.namespace)
            except BaseException as exc:  # noqa: BLE001 - the program's ending is the result
                error = exc
        # Invariant of every run: each handler that was entered has forgotten its failure state.
        assert not self.runtime._failures, f"failure states left open: {self.runtime._failures}"
        return out.getvalue(), error


def program_traceback(error) -> str:
    """The traceback text from the program's own frames on (this file's exec frame dropped)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))


# One behaviour per program; each prints what a change of semantics would alter.
SAME_OUTPUT = {
    "generators": """
        def numbers(limit):
            total = 0
            for i in range(limit):
                received = yield i
                total += received or 0
            return total
        def delegate():
            result = yield from numbers(3)
            yield ("returned", result)
        g = delegate()
        print(next(g), g.send(10), g.send(20), next(g))
        squares = (n * n for n in range(4))
        print(list(squares))
    """,
    "coroutines and async generators": """
        import asyncio
        async def ticker(n):
            for i in range(n):
                await asyncio.sleep(0)
                yield i
        async def collect():
            values = [v async for v in ticker(3)]
            values.append(await asyncio.sleep(0, result="slept"))
            return values
        async def main():
            results = await asyncio.gather(collect(), collect())
            print(results)
        asyncio.run(main())
    """,
    "class bodies, super() and __class__": """
        class Base:
            kind = "base"
            def describe(self):
                return f"Base({self.kind})"
        class Child(Base):
            kind = "child"
            extra = [kind] * 2
            __private = 5
            def describe(self):
                text = super().describe()
                return text + " > Child " + str(__class__.__name__) + str(self.__private)
            @classmethod
            def make(cls):
                return cls()
        print(Child.make().describe(), Child.extra, sorted(k for k in vars(Child) if not k.startswith("__")))
    """,
    "closures and nonlocal": """
        def counter():
            count = 0
            def bump(by=1):
                nonlocal count
                count += by
                return count
            return bump
        bump = counter()
        bump()
        bump(5)
        print(bump(), [f() for f in [lambda i=i: i * 2 for i in range(3)]])
    """,
    "global statements": """
        seen = []
        def remember(value):
            global last
            last = value
            seen.append(value)
        remember(1)
        remember(2)
        print(last, seen)
    """,
    "loops with break, continue and else": """
        found = []
        for n in range(10):
            if n % 2:
                continue
            if n > 6:
                break
            found.append(n)
        else:
            found.append("no break")
        while found:
            found.pop()
            if len(found) == 2:
                break
        print(found)
    """,
    "finally order and return values": """
        log = []
        def f():
            try:
                log.append("body")
                return "from body"
            finally:
                log.append("finally")
        def g():
            for i in range(3):
                try:
                    if i == 1:
                        continue
                    log.append(i)
                finally:
                    log.append(f"f{i}")
            return log
        print(f(), g())
    """,
    "with statements and user handlers": """
        import contextlib
        @contextlib.contextmanager
        def tag(name):
            print("enter", name)
            try:
                yield name
            finally:
                print("exit", name)
        with tag("a") as a, tag("b") as b:
            print(a + b)
        try:
            {}["missing"]
        except KeyError as error:
            print("handled", repr(error))
        with contextlib.suppress(ZeroDivisionError):
            print(1 / 0)
        print("after")
    """,
    "locals, globals and del": """
        def f():
            a = 1
            b = a + 1
            del a
            return sorted(locals())
        class C:
            x = 1
            y = x + 1
            names = sorted(locals())
        print(f(), C.names)
        print(sorted(k for k in globals() if not k.startswith("__")))
    """,
    "match, walrus, assert and annotations": """
        from dataclasses import dataclass
        @dataclass
        class Point:
            x: int
            y: int = 0
        def where(p):
            match p:
                case Point(x=0, y=0):
                    result = "origin"
                case Point(x=x, y=0):
                    result = f"x-axis {x}"
                case _:
                    result = "elsewhere"
            return result
        total: int = 0
        assert (n := 3) == 3
        print([where(p) for p in (Point(0), Point(2), Point(1, 1))], n, __annotations__)
    """,
    "imports in functions": """
        def load():
            import json
            from collections import OrderedDict as OD
            return json.dumps(OD(a=1))
        print(load())
    """,
    "docstrings and future imports": '''
        """module doc"""
        from __future__ import annotations
        def f() -> Undefined:
            """function doc"""
            return 1
        class C:
            """class doc"""
        print(__doc__, f.__doc__, C.__doc__, f.__annotations__)
    ''',
    "enum class bodies": """
        import enum
        class Color(enum.Enum):
            RED = 1
            GREEN = RED + 1
        print(list(Color), Color(2))
    """,
    "threads": """
        import threading
        results = []
        def work(n):
            value = n * n
            results.append(value)
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(sorted(results))
    """,
}


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
