"""The bytecode checkpoint path (recovery/bytecode_instrument.py, 3.11 only) against the AST
path (recovery/instrument.py): each recovery scenario runs as an imported module's code under
both, and everything the program or its user can observe must be the same — output, the
requests the decision source got, the exception that ended the program (type, message, notes,
__context__ chain, traceback text and line numbers), sys.exception() after. On other versions
only the AST path exists and these tests are skipped.
"""

import ast
import dis
import sys
import textwrap
import unittest

from aiython_bridge import program_code, pycompat
from aiython_bridge.recovery import instrument, selection

if pycompat.BYTECODE_CHECKPOINTS:  # written for 3.11's bytecode: not importable elsewhere
    from aiython_bridge.recovery import bytecode_instrument
from tests.test_instrument import Program, program_traceback

PLACEHOLDERS = (instrument.RUNTIME, instrument.EXCEPTION, instrument.RECURSION_ERROR)


def compiled_by(path_kind, source, filename):
    tree = ast.parse(source, filename)
    if path_kind == "bytecode":
        compiled = program_code._selected_in_bytecode(source, filename, tree, "prog.py", False, None)
        assert compiled is not None, "the bytecode path refused the program"
        return compiled
    result, ranges = instrument.instrument_selected(tree, source=source, entry=False, name="prog.py")
    code = compile(tree, filename, "exec", dont_inherit=True)
    return program_code.Compiled(code, result.checkpoints, ranges)


def observe(test, path_kind, source, decide):
    program = Program(test, source, decide)
    compiled = compiled_by(path_kind, program.source, program.path)
    program.compile = lambda instrumented: compiled.bind(checkpoints=program.runtime, filename=program.path)
    out, error = program.run()
    requests = [(r["statement"], r["target"], r["recovery"]["attempt"], r["recovery"]["exception_type"],
                 r["recovery"]["message"], r["location"]["line"], r["recovery"]["retry_allowed"]) for r in program.requests]
    ending = None
    if error is not None:
        chain, exc = [], error.__context__
        while exc is not None:
            chain.append(repr(exc))
            exc = exc.__context__
        lines, tb = [], error.__traceback__
        while tb is not None:
            lines.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
            tb = tb.tb_next
        ending = (repr(error), getattr(error, "__notes__", None), chain, lines,
                  program_traceback(error).replace(program.root, "ROOT"))
    return out, requests, ending


def retry_after(code):
    def decide(request, op):
        assert op("execute", {"code": code})["ok"]
        assert op("recover", {"action": "retry"})["ok"]
    return decide


def complete(value=None):
    def decide(request, op):
        args = {"action": "complete"}
        if value is not None:
            args["outcome"] = {"kind": "literal", "value": value}
        assert op("recover", args)["ok"]
    return decide


def always(action, **extra):
    return lambda request, op: op("recover", dict(action=action, **extra))


SHOW = """
import sys
def show(label, fn, *args):
    print(label, repr(fn(*args)), sys.exception())
    print(label, "after", sys.exception())
"""

# name -> (program, decision, what the program prints under either path)
SCENARIOS = {
    "complete without outcome": ("""
        def f():
            x = undefined_name
            return "went on"
        show("f", f)
    """, complete(), "f 'went on' None\nf after None\n"),
    "complete with outcome": ("""
        def f():
            name = user_name
            return "hello " + name
        show("f", f)
    """, complete("Ada"), "f 'hello Ada' None\nf after None\n"),
    "closure cell": ("""
        def outer():
            x = 0
            def inner():
                return x
            x = missing + 1
            return inner()
        show("outer", outer)
    """, complete(5), "outer 5 None\nouter after None\n"),
    "class body": ("""
        def make():
            class C:
                value = missing_value
                __hidden = other_missing
            return C.value, C._C__hidden
        show("make", make)
    """, complete(7), "make (7, 7) None\nmake after None\n"),
    "module level": ("""
        for attempt in range(2):
            if attempt:
                value = missing_module_value
        print(value, sys.exception())
    """, complete(8), "8 None\n"),
    "global": ("""
        def g():
            global G
            G = missing
            return G
        show("g", g)
        print(G)
    """, complete(3), "g 3 None\ng after None\n3\n"),
    "retry succeeding": ("""
        data = {}
        def f():
            v = data["k"]
            total = v + 1
            return total
        show("f", f)
    """, retry_after("data['k'] = 41"), "f 42 None\nf after None\n"),
    "retry failing twice": ("""
        attempts = []
        data = {}
        def read():
            attempts.append(1)
            value = data[len(attempts)]
            return value
        def bump():
            attempts.append(0)
        def run():
            value = data[bump() or len(attempts)]
            return value
        show("run", run)
    """, always("retry"), None),
    "reraise with the note": ("""
        def ratio(a, b):
            return a / b
        show("ratio", ratio, 1, 0)
        ratio(2, 0)
    """, always("reraise", explanation="b is zero by design"), None),
    "return retried and completed": ("""
        data = {}
        def f():
            return data["k"] * 2
        def g():
            return missing_name
        show("f", f)
        show("g", g)
    """, lambda request, op: retry_after("data['k'] = 21")(request, op) if request["target"] is None
        and "data" in request["statement"] else complete()(request, op), "f 42 None\nf after None\ng None None\ng after None\n"),
    "loops": ("""
        data = {}
        def f(rows):
            out = []
            for row in rows:
                for cell in row:
                    i = 0
                    while i < 2:
                        out.append(data[cell] + i)
                        i += 1
                    if cell == "b":
                        return out[-1] + data["z"]
            return out
        show("f", f, ["ab", "c"])
    """, lambda request, op: retry_after("data.update(a=1, b=2, c=3, z=100)")(request, op), "f 103 None\nf after None\n"),
    "except and finally bodies": ("""
        def f(x):
            try:
                return 1 / x
            except ZeroDivisionError as error:
                fallback = compute(error)
                return fallback + inner_missing
            finally:
                done = finish_missing
        show("f", f, 0)
    """, lambda request, op: complete(1 if request["target"] else None)(request, op), "f None None\nf after None\n"),
    "a finally body while an exception passes": ("""
        import functools
        class Box:
            @functools.lru_cache
            @staticmethod
            def h(n):
                try:
                    raise KeyError(n)
                finally:
                    for i in range(n):
                        note = finish_missing + i
        show("h", Box.h, 2)
    """, complete(4), None),
    "recursion": ("""
        def down(n):
            value = down(n + 1)
            return value
        down(0)
    """, always("reraise", explanation="unbounded"), None),
    "base exception during a retry": ("""
        source = ["int('first')"]
        def f():
            x = eval(source[0])
            return x
        show("f", f)
    """, retry_after("source[0] = \"exec('raise KeyboardInterrupt(\\\"second\\\")')\""), None),
    "coroutine": ("""
        import asyncio
        data = {}
        async def get():
            value = await asyncio.sleep(0, data["k"])
            return value + await asyncio.sleep(0, data["j"])
        print(asyncio.run(get()))
    """, lambda request, op: retry_after("data.update(k=5, j=6)")(request, op), "11\n"),
    "generator and augmented assignment": ("""
        data = {}
        def numbers(limit):
            total = 0
            for i in range(limit):
                received = yield i + data["offset"]
                total += received or missing_step
            return total
        g = numbers(2)
        print(next(g), g.send(None), g.send(None) if False else None)
    """, lambda request, op: (retry_after("data['offset'] = 10") if "offset" in request["statement"] else complete(1))(request, op),
        "10 11 None\n"),
}


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


def _units(written):
    """A handler's bytes, one position per unit, and its entries."""
    data, segments, entries = written
    positions = []
    for segment in segments:
        positions += [segment[1]] * segment[0] if type(segment) is tuple else segment
    return data, positions, entries


def _shown(value):
    return value.co_qualname if hasattr(value, "co_code") else value


@unittest.skipUnless(pycompat.BYTECODE_CHECKPOINTS, "the bytecode path is 3.11's")
class HotPath(unittest.TestCase):
    def test_the_statements_run_the_plain_instructions_and_only_gain_table_entries(self):
        source = SHOW + textwrap.dedent(SCENARIOS["loops"][0]) + textwrap.dedent(SCENARIOS["except and finally bodies"][0])
        plain = compile(source, "prog.py", "exec", dont_inherit=True)
        compiled = program_code._selected_in_bytecode(source, "prog.py", ast.parse(source), "prog.py", False, None)
        self.assertIsNotNone(compiled)
        pairs = [(plain, compiled.code)]
        changed = 0
        while pairs:
            old, new = pairs.pop()
            size = len(old.co_code)
            self.assertEqual(new.co_code[:size], old.co_code, old.co_name)
            self.assertEqual(list(new.co_positions())[:size // 2], list(old.co_positions()), old.co_name)
            before = [(i.offset, i.opname, i.arg, _shown(i.argval)) for i in dis.get_instructions(old)]
            after = [(i.offset, i.opname, i.arg, _shown(i.argval)) for i in dis.get_instructions(new) if i.offset < size]
            self.assertEqual(after, before, old.co_name)
            changed += len(new.co_code) > size
            pairs += [(a, b) for a, b in zip(old.co_consts, new.co_consts) if hasattr(a, "co_code")]
        self.assertGreaterEqual(changed, 2)

    def test_the_template_writes_what_the_assembler_lays_out(self):
        """Every handler of a few standard library modules and of the scenarios, both ways."""
        import argparse
        import configparser
        import difflib
        import json.decoder
        import textwrap as textwrap_module

        compared = []
        original = bytecode_instrument.handler_code

        def both(point, table, template, placeholders, base, assembler=False):
            fast = original(point, table, template, placeholders, base)
            slow = original(point, table, template, placeholders, base, assembler=True)
            self.assertEqual(_units(fast), _units(slow))
            compared.append(template.usable and template.write(point, table.const(point.index), base) is not None)
            return fast

        sources = [SHOW + textwrap.dedent(body) for body, _, _ in SCENARIOS.values()]
        for module in (argparse, configparser, difflib, json.decoder, textwrap_module):
            with open(module.__file__, encoding="utf-8") as f:
                sources.append(f.read())
        bytecode_instrument.handler_code = both
        try:
            for source in sources:
                tree = ast.parse(source)
                selected = selection.selected_sites(selection.index_statements(tree), source, entry=False)
                bytecode_instrument.instrument_code(compile(source, "m.py", "exec"), selected, PLACEHOLDERS)
        finally:
            bytecode_instrument.handler_code = original
        self.assertGreater(sum(compared), 300, (sum(compared), len(compared)))  # written by the template

    def test_an_unprovable_layout_falls_back_to_the_ast_path(self):
        refused = [
            "def f():\n    assert False, 'never here'\n",  # raises at its end: no instruction to go back to
            "def f(y):\n    x = 'a%r' % (y,)\n",  # its first constant is loaded before it, at the def's position
        ]
        for source in refused:
            tree = ast.parse(source)
            selected = selection.selected_sites(selection.index_statements(tree), source, entry=False)
            self.assertEqual(len(selected), 1)
            self.assertIsNone(bytecode_instrument.instrument_code(compile(source, "m.py", "exec"), selected, PLACEHOLDERS),
                              source)
        source = refused[0]
        compiled = program_code.compile_selected_quietly(source, "m.py", ast.parse(source), entry=False, name="m.py")
        self.assertEqual(len(compiled.checkpoints), 1)  # the AST path's handler
        names = {n for c in compiled.code.co_consts if hasattr(c, "co_code") for n in c.co_names}
        self.assertIn("raising", names)


if __name__ == "__main__":
    unittest.main()
