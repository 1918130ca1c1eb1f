"""Frame operations that read a frame (SPEC §5.2): evaluate's descriptors, handles and result ids,
program exceptions as tool errors, strict-JSON results, and inspect through a handle.
Each test calls the API from inside a live function through sys._getframe(), then checks what
that function's own later code sees. Run under 3.11, 3.12 and 3.13."""

import json
import sys
import unittest

from aiython_bridge.frameops import Invocation, ToolError


def raising_helper():
    raise LookupError("from program code")

class Evaluate(unittest.TestCase):
    def test_descriptors_carry_values_of_primitives(self):
        text = "hello"
        ratio = 0.25
        big = 2**70
        huge = 10**400
        flag = True
        nothing = None
        long_text = "z" * 5000
        inv = Invocation(sys._getframe())
        self.assertEqual(inv.evaluate("text + '!'"), {"handle": "object-1", "type": "str", "module": "builtins",
                                                      "qualname": "str", "value": "hello!"})
        self.assertEqual(inv.evaluate("ratio * 2")["value"], 0.5)
        self.assertIs(inv.evaluate("flag")["value"], True)
        self.assertIn("value", inv.evaluate("nothing"))
        self.assertIsNone(inv.evaluate("nothing")["value"])
        self.assertEqual(inv.evaluate("2**53 - 1")["value"], 2**53 - 1)
        wide = inv.evaluate("big")
        self.assertNotIn("value", wide)
        self.assertEqual(wide["text"], str(2**70))
        self.assertEqual(inv.evaluate("huge")["bits"], huge.bit_length())
        self.assertEqual(inv.evaluate("float('nan')")["text"], "nan")
        self.assertNotIn("value", inv.evaluate("float('inf')"))
        described = inv.evaluate("long_text")
        self.assertNotIn("value", described)
        self.assertEqual(described["length"], 5000)
        self.assertEqual(inv.evaluate("'y' * 4000")["value"], "y" * 4000)
        del text, ratio, big, flag, nothing, long_text  # read by the tool through the frame only

    def test_handles_are_stable_by_identity(self):
        items = [1, 2]
        inv = Invocation(sys._getframe())
        first = inv.evaluate("items")["handle"]
        self.assertEqual(inv.evaluate("items")["handle"], first)
        self.assertEqual(inv.get_binding("items")["handle"], first)
        copy = inv.evaluate("items[:]")["handle"]
        self.assertNotEqual(copy, first)
        self.assertIs(inv.lookup_handle(first), items)
        self.assertEqual(inv.descriptor(items)["handle"], first)

    def test_unknown_handle_is_a_tool_error(self):
        inv = Invocation(sys._getframe())
        inv.evaluate("1")
        with self.assertRaises(ToolError) as caught:
            inv.lookup_handle("object-99")
        self.assertEqual(caught.exception.error_type, "UnknownHandle")
        self.assertIn("object-1", caught.exception.message)
        with self.assertRaises(ToolError):
            inv.inspect("object-0")

    def test_result_ids_are_remembered(self):
        payload = {"k": 1}
        inv = Invocation(sys._getframe())
        inv.evaluate("payload", result_id="p")
        inv.get_binding("payload", result_id="q")
        self.assertIs(inv.recall("p"), payload)
        self.assertIs(inv.recall("q"), payload)
        with self.assertRaises(ToolError) as caught:
            inv.recall("nope")
        self.assertEqual(caught.exception.error_type, "UnknownResult")

    def test_comprehensions_and_lambdas_see_frame_locals(self):
        factor = 3
        items = [1, 2, 3]
        inv = Invocation(sys._getframe())
        self.assertEqual(inv.evaluate("sum(v * factor for v in items)")["value"], 18)
        self.assertEqual(inv.evaluate("len([v for v in items if v * factor > 3])")["value"], 2)
        self.assertEqual(inv.evaluate("(lambda v: v * factor)(5)")["value"], 15)
        self.assertEqual(factor, 3)
        del items  # read by the tool through the frame only

    def test_walrus_in_evaluate_binds_the_frame_local(self):
        seen = 0
        inv = Invocation(sys._getframe())
        inv.evaluate("(seen := 41) + 1")
        self.assertEqual(seen, 41)

    def test_program_exception_becomes_tool_error(self):
        inv = Invocation(sys._getframe())
        with self.assertRaises(ToolError) as caught:
            inv.evaluate("1 / 0")
        self.assertEqual((caught.exception.error_type, caught.exception.message), ("ZeroDivisionError", "division by zero"))
        with self.assertRaises(ToolError) as caught:
            inv.evaluate("raising_helper()")
        self.assertEqual((caught.exception.error_type, caught.exception.message), ("LookupError", "from program code"))
        with self.assertRaises(ToolError) as caught:
            inv.evaluate("undefined_name_here")
        self.assertEqual(caught.exception.error_type, "NameError")
        with self.assertRaises(ToolError) as caught:
            inv.execute("raise ValueError('x' * 5000)")
        self.assertEqual(len(caught.exception.message), 2000)

    def test_exception_whose_str_fails(self):
        class Odd(Exception):
            def __str__(self):
                raise RuntimeError("no")

        inv = Invocation(sys._getframe())
        with self.assertRaises(ToolError) as caught:
            inv.execute("raise Odd()")
        self.assertEqual(caught.exception.error_type, "Odd")
        self.assertIn("str()", caught.exception.message)

    def test_syntax_errors(self):
        inv = Invocation(sys._getframe())
        for mode, code, needle in [("evaluate", "1 +", "line 1"), ("evaluate", "x = 1", "line 1"),
                                   ("execute", "return 5", "'return' outside function"),
                                   ("execute", "if True:\nprint(1)", "IndentationError"),
                                   ("execute", "yield 1", "outside function"),
                                   ("execute", "from os import *", "import *")]:
            with self.subTest(code=code), self.assertRaises(ToolError) as caught:
                getattr(inv, mode)(code)
            self.assertEqual(caught.exception.error_type, "SyntaxError")
            self.assertIn(needle, caught.exception.message)

    def test_system_exit_does_not_end_the_program(self):
        inv = Invocation(sys._getframe())
        with self.assertRaises(ToolError) as caught:
            inv.execute("import sys; sys.exit(3)")
        self.assertEqual(caught.exception.error_type, "SystemExit")


class JsonResults(unittest.TestCase):
    def test_every_result_is_strict_json(self):
        messy = {1: float("nan"), (2, 3): [float("inf"), b"\x00", 2**80, {None: {"deep": -0.0}}],
                 "s": "x" * 9000, frozenset({1}): {3, 4}}
        weird_number = float("-inf")
        inv = Invocation(sys._getframe())
        handle = inv.get_binding("messy")["handle"]
        results = [inv.inspect(handle, depth=3, limit=100), inv.evaluate("weird_number"),
                   *inv.request_objects("messy weird_number"), inv.frames(),
                   inv.code_context(), inv.get_frame_code()]
        for result in results:
            json.dumps(result, allow_nan=False)
        self.assertEqual(results[1]["text"], "-inf")
        del messy, weird_number  # read by the tool through the frame only


class InspectTool(unittest.TestCase):
    def test_inspect_through_handle(self):
        data = {"a": [1, 2, 3], "b": "text"}
        inv = Invocation(sys._getframe())
        handle = inv.get_binding("data")["handle"]
        shown = inv.inspect(handle, depth=2, limit=10)
        self.assertEqual(shown["handle"], handle)
        self.assertEqual([e["key"]["value"] for e in shown["entries"]], ["a", "b"])
        self.assertEqual([i["value"] for i in shown["entries"][0]["value"]["items"]], [1, 2, 3])
        self.assertIs(inv.lookup_handle(shown["entries"][0]["value"]["handle"]), data["a"])
        with self.assertRaises(ToolError):
            inv.inspect(handle, depth="2")


if __name__ == "__main__":
    unittest.main()
