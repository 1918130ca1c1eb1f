"""What `--explain` lists (recovery/listing.py, SPEC §3.4, §4.2) is what a run instruments: the
program parsed in parts, and parts listed ahead from the frontend's windows, give the checkpoints
of the whole tree (selection.select_checkpoints, the run's) — on standard-library modules cut into
many parts, on cuts inside strings, brackets, clauses and decorators, and with windows that hold
AI blocks, that the program does not have, or that were not all listed before the plan came.
"""

import ast
import json
import os
import sysconfig
import textwrap
import unittest

from aiython_bridge.json_codec import encode
from aiython_bridge.recovery.listing import Ahead, checkpoints_of
from aiython_bridge.recovery.selection import select_checkpoints

SHOWN = ("id", "span", "statement", "target", "retry_allowed")


def whole(source, entry=True):
    """The run's checkpoints of a source that parses, as --explain shows them."""
    found = select_checkpoints(ast.parse(source), source, entry=entry, name="m.py")
    return [{key: info[key] for key in SHOWN} for info in found]


def listed(source, plan=None, *, entry=True, part=1, ahead=None):
    return checkpoints_of(source, "m.py", plan, entry=entry, name="m.py", part=part, ahead=ahead)


CUTS = textwrap.dedent('''\
    """The module's docstring."""
    import os
    TEXT = """
    x = 1
    def f():
    """
    total = 1 + \\
    2
    values = [
    1,
    ]
    if total:
        y = 1
    elif values:
        y = 2
    else:
        y = 3
    try:
        z = 1
    except ValueError:
        z = 2
    finally:
        w = 0
    @staticmethod
    @property
    def g(a: int):
        a = a + 1
        return a
    "not a docstring here"
    elsewhere = 1
    class C:
        """doc"""
        n: int = 0
''')


class Parts(unittest.TestCase):
    def test_cuts_inside_statements_grow_into_whole_ones(self):
        for entry in (True, False):
            with self.subTest(entry=entry):
                self.assertEqual(listed(CUTS, entry=entry), whole(CUTS, entry))

    def test_standard_library_modules_in_many_parts(self):
        root = sysconfig.get_paths()["stdlib"]
        names = ["ast.py", "argparse.py", "dataclasses.py", "typing.py", "json/decoder.py", "asyncio/tasks.py",
                 "email/message.py", "collections/__init__.py", "unittest/case.py", "inspect.py"]
        for name in names:
            with self.subTest(name):
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    source = f.read()
                self.assertEqual(listed(source, part=2048), whole(source))


# Two windows hold an AI block each; the plan's program has calls there (src/frontend/render.ts).
SOURCE = "import os\n\ndef f():\n    return sum it up\n\nx = 1\ny = pick one\nprint(x, y)\n"
PROGRAM = "import os\n\ndef f():\n    return _rt.block(1)\n\nx = 1\ny = _rt.block(2)\nprint(x, y)\n"
PLAN = {"rewritten": PROGRAM, "runtimeName": "_rt", "blocks": [
    {"index": 1, "kind": "expression", "is_async": False, "span": {"line": 4, "column": 11, "end_line": 4, "end_column": 20}},
    {"index": 2, "kind": "expression", "is_async": False, "span": {"line": 7, "column": 4, "end_line": 7, "end_column": 12}}]}
WINDOWS = [[1, 2], [3, 5], [6, 6], [7, 7], [8, 8]]


class ListedAhead(unittest.TestCase):
    def expected(self):
        return listed(SOURCE, PLAN, part=1 << 20)

    def test_the_windows_listed_ahead_and_the_rest_give_the_plan_s_checkpoints(self):
        ahead = Ahead(SOURCE, "m.py", True, WINDOWS, part=1)
        while not ahead.done:
            ahead.step()
        self.assertEqual(sorted(first for first, _, _ in ahead.listed), [1, 6, 8], "the windows without a block")
        self.assertEqual(listed(SOURCE, PLAN, ahead=ahead), self.expected())
        self.assertEqual([c["statement"] for c in self.expected()],
                         ["import os", "def f():\n    return sum it up", "return sum it up", "x = 1", "y = pick one",
                          "print(x, y)"])

    def test_a_plan_that_comes_before_the_windows_are_listed(self):
        ahead = Ahead(SOURCE, "m.py", True, WINDOWS)
        self.assertEqual(listed(SOURCE, PLAN, ahead=ahead), self.expected())

    def test_windows_the_program_does_not_have_are_listed_again(self):
        # The whole file as one statement block: no line of the program is the source's.
        program = "_rt.block(1" + "\n" * 7 + "           )\n"
        plan = {"rewritten": program, "runtimeName": "_rt", "blocks": [
            {"index": 1, "kind": "statement", "is_async": False, "span": {"line": 1, "column": 0, "end_line": 8, "end_column": 11}}]}
        ahead = Ahead(SOURCE, "m.py", True, WINDOWS)
        while not ahead.done:
            ahead.step()
        self.assertEqual(listed(SOURCE, plan, ahead=ahead), [])

    def test_windows_cut_inside_a_statement(self):
        for source, windows in [("values = [\n1,\n]\nprint(values)\n", [[1, 1], [2, 4]]),
                                ('text = """\ny = 1\n"""\nprint(text)\n', [[1, 1], [2, 2], [3, 4]])]:  # y = 1 parses alone
            with self.subTest(source):
                ahead = Ahead(source, "m.py", True, windows, part=1)  # each window a group of its own
                while not ahead.done:
                    ahead.step()
                self.assertEqual(listed(source, {}, ahead=ahead), whole(source))


class ListedAsJson(unittest.TestCase):
    """The server's form: the JSON text of the list, as the channel would have encoded the dicts."""

    def test_the_text_is_the_list_s_json(self):
        source = 'import os\nnote = "caf\u00e9 \\"quoted\\" \\ttab"\n'
        as_json = "".join(checkpoints_of(source, "m é.py", None, entry=True, name="m é.py", as_json=True))
        dicts = checkpoints_of(source, "m é.py", None, entry=True, name="m é.py")
        self.assertEqual(len(dicts), 2)
        self.assertEqual(as_json, encode(dicts))
        self.assertEqual(json.loads(as_json)[-1]["statement"], 'note = "caf\u00e9 \\"quoted\\" \\ttab"')

    def test_with_windows_listed_ahead(self):
        ahead = Ahead(SOURCE, "m.py", True, WINDOWS, part=1, as_json=True)
        while not ahead.done:
            ahead.step()
        as_json = "".join(checkpoints_of(SOURCE, "m.py", PLAN, entry=True, name="m.py", ahead=ahead, as_json=True))
        self.assertEqual(json.loads(as_json), listed(SOURCE, PLAN, part=1 << 20))

    def test_no_checkpoints(self):
        self.assertEqual("".join(checkpoints_of("# nothing\n", "m.py", None, entry=True, name="m.py", as_json=True)), "[]")


if __name__ == "__main__":
    unittest.main()
