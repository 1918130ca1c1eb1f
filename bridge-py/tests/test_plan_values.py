"""Values between a paused frame and a capability plan (SPEC §10, frameops/plan_values.py): the
exact JSON conversion of `$binding` / `$handle` references and results held as handles."""

import pathlib
import sys
import unittest

from aiython_bridge.frameops import Invocation, ToolError, plan_values


class Custom:
    def __fspath__(self):
        raise AssertionError("program code must not run")


class ReadValues(unittest.TestCase):
    def test_bindings_and_handles_convert_exactly(self):
        question = "how do keys rotate?"
        notes = pathlib.Path("notes") / "a.md"
        options = {"k": 3, "ratio": 0.5, "tags": ("x", "y"), "none": None, "flag": True}
        inv = Invocation(sys._getframe())
        handle = inv.evaluate("[1, 2.5]")["handle"]
        got = plan_values.read_values(inv, [
            {"kind": "binding", "name": "question"}, {"kind": "binding", "name": "notes"},
            {"kind": "binding", "name": "options"}, {"kind": "handle", "id": handle},
        ])
        self.assertEqual(got["values"], ["how do keys rotate?", "notes/a.md",
                                         {"k": 3, "ratio": 0.5, "tags": ["x", "y"], "none": None, "flag": True},
                                         [1, 2.5]])
        inv.close()
        del question, notes, options  # read by the tool through the frame only

    def test_unconvertible_values_name_the_reference_and_the_fix(self):
        data = b"\x00\x01"
        weird = Custom()
        nested = {1: "a"}
        inv = Invocation(sys._getframe())
        cases = [("data", "TypeError", "$binding 'data' is a bytes"), ("weird", "TypeError", "$binding 'weird' is a Custom"),
                 ("nested", "TypeError", "key of type int"), ("missing_name", "NameError", "not defined")]
        for name, error_type, text in cases:
            with self.subTest(name=name), self.assertRaises(ToolError) as caught:
                plan_values.read_values(inv, [{"kind": "binding", "name": name}])
            self.assertEqual(caught.exception.error_type, error_type)
            self.assertIn(text, caught.exception.message)
        with self.assertRaises(ToolError) as caught:
            plan_values.read_values(inv, [{"kind": "handle", "id": "object-9"}])
        self.assertEqual(caught.exception.error_type, "UnknownHandle")
        inv.close()
        del data, weird, nested  # read by the tool through the frame only

    def test_non_finite_floats_and_deep_nesting_are_refused(self):
        bad = float("nan")
        deep = []
        for _ in range(40):
            deep = [deep]
        inv = Invocation(sys._getframe())
        for name in ("bad", "deep"):
            with self.subTest(name=name), self.assertRaises(ToolError):
                plan_values.read_values(inv, [{"kind": "binding", "name": name}])
        inv.close()
        del bad  # read by the tool through the frame only


class HoldValues(unittest.TestCase):
    def test_results_become_handles_and_floats_stay_floats(self):
        inv = Invocation(sys._getframe())
        held = plan_values.hold_values(inv, ['"the transcript"', "[[1.0, 0.0], [0.5, 2.0]]"])
        first, second = held["descriptors"]
        self.assertEqual(first["value"], "the transcript")
        vectors = inv.lookup_handle(second["handle"])
        self.assertEqual(vectors, [[1.0, 0.0], [0.5, 2.0]])
        self.assertIs(type(vectors[0][0]), float)
        self.assertNotEqual(first["handle"], second["handle"])
        inv.close()


if __name__ == "__main__":
    unittest.main()
