"""Bounded descriptions (SPEC §5.2): what inspect shows of dataclasses, enums, functions, modules
and bytes, and the bounds it keeps (items, depth, node and character budgets, shared objects)."""

import unittest

from aiython_bridge import describe
from aiython_bridge.describe import function_signature, inspect_object
from tests.describe_fixtures import Color, Point, Ticket, counting_handles, nodes, summarize


class Structures(unittest.TestCase):
    def test_dataclass_fields_in_order(self):
        ticket = Ticket("Broken login", 2, ["auth"], None)
        shown = inspect_object(ticket, counting_handles())
        self.assertEqual([f["name"] for f in shown["fields"]], ["title", "priority", "tags", "owner", "due"])
        cls = inspect_object(Ticket, counting_handles())
        self.assertEqual(cls["dataclass_fields"], {"title": "str", "priority": "int", "tags": "list[str]",
                                                   "owner": "Person", "due": "typing.Optional[int]"})
        slotted = inspect_object(Point(1, 2), counting_handles())
        self.assertEqual([(f["name"], f["value"]["value"]) for f in slotted["fields"]], [("x", 1), ("y", 2)])

    def test_enum_member(self):
        shown = inspect_object(Color.RED, counting_handles())
        fields = {f["name"]: f["value"].get("value") for f in shown["fields"]}
        self.assertEqual((fields["_name_"], fields["_value_"]), ("RED", "red"))

    def test_function_and_module(self):
        self.assertEqual(function_signature(summarize), "summarize(text, limit, *, style)")

        def full(a, b=1, /, c=2, *args, d, e=3, **kw):
            pass

        self.assertEqual(function_signature(full), "Structures.test_function_and_module.<locals>.full"
                                                   "(a, b, /, c, *args, d, e, **kw)")
        shown = inspect_object(describe, counting_handles(), limit=5)
        self.assertEqual(shown["kind"], "module")
        self.assertEqual(len(shown["attributes"]), 5)
        self.assertTrue(shown["truncated"])

    def test_bytes(self):
        shown = inspect_object(b"\x00\xff" * 100, counting_handles())
        self.assertEqual(shown["length"], 200)
        self.assertEqual(shown["hex"], "00ff" * 32)


class Bounds(unittest.TestCase):
    def test_limit_and_truncation(self):
        shown = inspect_object(list(range(500)), counting_handles(), limit=10)
        self.assertEqual(len(shown["items"]), 10)
        self.assertTrue(shown["truncated"])
        self.assertEqual(shown["length"], 500)
        self.assertEqual(len(inspect_object(list(range(500)), counting_handles(), limit=1000)["items"]), 100)
        self.assertEqual(len(inspect_object([1, 2], counting_handles(), limit=0)["items"]), 1)

    def test_depth_is_clamped_to_three(self):
        deep = [[[[[1]]]]]
        shown = inspect_object(deep, counting_handles(), depth=9)
        third = shown["items"][0]["items"][0]["items"][0]
        self.assertEqual(third["type"], "list")
        self.assertNotIn("items", third)
        shallow = inspect_object(deep, counting_handles(), depth=0)
        self.assertNotIn("items", shallow["items"][0])

    def test_total_node_budget(self):
        cube = [[[k for k in range(100)] for _ in range(100)] for _ in range(100)]
        shown = inspect_object(cube, counting_handles(), depth=3, limit=100)
        self.assertLessEqual(len(nodes(shown)), describe.INSPECT_NODE_BUDGET + 1)
        self.assertTrue(shown["items"][-1].get("truncated") or shown.get("truncated"))

    def test_string_bounds(self):
        shown = inspect_object(["s" * 1000, "short"], counting_handles())
        first, second = shown["items"]
        self.assertNotIn("value", first)
        self.assertEqual((first["length"], first["preview"]), (1000, "s" * 200))
        self.assertEqual(second["value"], "short")
        many = inspect_object(["q" * 500] * 100, counting_handles(), limit=100)
        self.assertLessEqual(sum(len(i.get("value", "")) for i in many["items"]), describe.INSPECT_CHAR_BUDGET)
        top = inspect_object("t" * 4000, counting_handles())
        self.assertEqual(top["value"], "t" * 4000)

    def test_same_object_same_handle(self):
        shared = [1]
        shown = inspect_object([shared, shared], counting_handles())
        self.assertEqual(shown["items"][0]["handle"], shown["items"][1]["handle"])


if __name__ == "__main__":
    unittest.main()
