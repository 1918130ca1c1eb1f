"""Checkpoints of a planned program (SPEC §3.1, §4.2; recovery/rendering.py): selected by the one
rule on the rewritten program, reported in the user's source. A call wider than its block moves
the columns after it, so every span and statement text here is checked against the source the
user wrote; a statement block's call is never a checkpoint, an expression block's statement is;
and the instrumented program recovers a statement that follows a block on the same line.

The plans are written here as the frontend writes them (src/frontend/render.ts): a call padded
to its block's width, or longer than a short block.
"""

import builtins
import os
import shutil
import tempfile
import unittest

from aiython_bridge.preparation import program_code
from aiython_bridge.recovery.checkpoints import CheckpointRuntime
from aiython_bridge.recovery.listing import checkpoints_of
from tests.support import LocalDecisions


def block(index, kind, span, *, is_async=False):
    line, column, end_line, end_column = span
    return {"id": f"prog.py:{index}", "index": index, "statement": "", "kind": kind,
            "span": {"line": line, "column": column, "end_line": end_line, "end_column": end_column},
            "target": None, "output_type": None, "requires_result": kind == "expression",
            "directive": {"profile": None, "prompts": [], "capability": None, "provider": None},
            "is_async": is_async, "function": None}


def plan(rewritten, *blocks):
    return {"filename": "prog.py", "displayName": "prog.py", "rewritten": rewritten, "runtimeName": "_rt",
            "blocks": list(blocks), "diagnostics": []}


SOURCE = 'x = sum it; y = int("a")\nz = int(count them) + 1\nask the model\nprint(x, y, z)\n'
PLAN = plan('x = _rt.block(1); y = int("a")\nz = int(_rt.block(2)) + 1\n_rt.block(3 )\nprint(x, y, z)\n',
            block(1, "expression", (1, 4, 1, 10)), block(2, "expression", (2, 8, 2, 18)),
            block(3, "statement", (3, 0, 3, 13)))


def source_text(source, span):
    lines = source.split("\n")
    if span["line"] == span["end_line"]:
        return lines[span["line"] - 1][span["column"]:span["end_column"]]
    middle = lines[span["line"]:span["end_line"] - 1]
    return "\n".join([lines[span["line"] - 1][span["column"]:], *middle, lines[span["end_line"] - 1][:span["end_column"]]])


class Positions(unittest.TestCase):
    def selected(self, source, the_plan, entry=True):
        found = checkpoints_of(source, "prog.py", the_plan, entry=entry, name="prog.py")
        for checkpoint in found:
            self.assertEqual(checkpoint["statement"], source_text(source, checkpoint["span"]), checkpoint["id"])
        return [(c["statement"], c["span"]["column"], c["span"]["end_column"]) for c in found]

    def test_columns_after_a_wider_call_are_the_source_s(self):
        self.assertEqual(self.selected(SOURCE, PLAN), [
            ("x = sum it", 0, 10), ('y = int("a")', 12, 24), ("z = int(count them) + 1", 0, 23), ("print(x, y, z)", 0, 14),
        ])

    def test_ids_count_the_checkpoints_of_the_program_in_order(self):
        found = checkpoints_of(SOURCE, "prog.py", PLAN, entry=True, name="prog.py")
        self.assertEqual([c["id"] for c in found], ["prog.py:c1", "prog.py:c2", "prog.py:c3", "prog.py:c4"])
        self.assertEqual([c["target"] for c in found], ["x", "y", "z", None])

    def test_a_statement_block_is_no_checkpoint_but_an_expression_block_alone_is_one(self):
        source = "ask the model\n(sum it)\n"
        the_plan = plan("_rt.block(1) \n(_rt.block(2))\n", block(1, "statement", (1, 0, 1, 13)),
                        block(2, "expression", (2, 1, 2, 7)))
        self.assertEqual(self.selected(source, the_plan), [("(sum it)", 0, 8)])

    def test_an_awaited_call_in_async_def(self):
        source = "async def f():\n    r = await get it; s = 1\n    return r\n"
        the_plan = plan("async def f():\n    r = await (await _rt.ablock(1))(); s = 1\n    return r\n",
                        block(1, "expression", (2, 14, 2, 20), is_async=True))
        self.assertEqual(self.selected(source, the_plan, entry=False),
                         [("r = await get it", 4, 20), ("s = 1", 22, 27), ("return r", 4, 12)])

    def test_a_block_of_several_lines_moves_the_columns_after_it_on_its_last_line(self):
        # `))()` closes an awaited call: wider than a last line of one character
        source = "async def f():\n    v = [compute\ni]; w = 2\n    return v\n"
        the_plan = plan("async def f():\n    v = [(await _rt.ablock(1\n))()]; w = 2\n    return v\n",
                        block(1, "expression", (2, 9, 3, 1), is_async=True))
        self.assertEqual(self.selected(source, the_plan, entry=False),
                         [("v = [compute\ni]", 4, 2), ("w = 2", 4, 9), ("return v", 4, 12)])

    def test_statement_texts_keep_the_source_s_line_breaks(self):
        source = "x = (1,\r\n     2)\r\nprint(x)\r\n"
        found = checkpoints_of(source, "prog.py", None, entry=True, name="prog.py")
        self.assertEqual([c["statement"] for c in found], ["x = (1,\r\n     2)", "print(x)"])

    def test_non_ascii_text_before_and_after_a_block(self):
        source = 'é = "ü"; x = größe; ß = 2\n'
        the_plan = plan('é = "ü"; x = _rt.block(1); ß = 2\n', block(1, "expression", (1, 13, 1, 18)))
        self.assertEqual(self.selected(source, the_plan), [('é = "ü"', 0, 7), ("x = größe", 9, 18), ("ß = 2", 20, 25)])


class Recovery(unittest.TestCase):
    """The planned program as the bridge compiles it (program_code.compile_unbound), run."""

    def test_a_statement_after_a_block_on_its_line_is_recovered(self):
        root = tempfile.mkdtemp(prefix="aiython-planned-")
        self.addCleanup(shutil.rmtree, root, True)
        path = os.path.join(root, "prog.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(SOURCE)
        requests = []

        def complete(request, op):
            requests.append(request)
            return op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": 7}})

        runtime = CheckpointRuntime(LocalDecisions(complete), project_root=root)
        runtime.callers.top_codes.add(Recovery.test_a_statement_after_a_block_on_its_line_is_recovered.__code__)
        compiled = program_code.compile_unbound(SOURCE, path, PLAN, checkpoints=True, entry=True)
        code = compiled.bind(blocks=Blocks(), checkpoints=runtime, filename=path)
        namespace = {"__name__": "__main__", "__builtins__": builtins, "print": lambda *values: None}
        exec(code, namespace)
        self.assertEqual((namespace["x"], namespace["y"], namespace["z"]), (10, 7, 21))
        [request] = requests
        self.assertEqual((request["block_id"], request["statement"]), ("prog.py:c2", 'y = int("a")'))
        location = request["location"]
        self.assertEqual((location["line"], location["column"], location["end_line"], location["end_column"]), (1, 12, 1, 24))


class Blocks:
    """The block runtime's calls (runtime.Runtime's `block`): block N's value is N * 10."""

    def block(self, index):
        return index * 10


if __name__ == "__main__":
    unittest.main()
