"""Safe, bounded descriptions (SPEC §5.1, §5.2): no program hook is ever called, bounds hold,
related objects pick the right names and inline only small primitives."""

import dataclasses
import enum
import sys
import unittest
from typing import Optional

from aiython_bridge import describe
from aiython_bridge.describe import (descriptor, frame_objects, function_signature, inspect_object, related_objects,
                                     statement_words)

CALLS = []
TABLE = {"low": 1, "high": 2}


def summarize(text, limit=3, *, style="short"):
    return text


class Meta(type):
    def __getattribute__(cls, name):
        CALLS.append(("meta.__getattribute__", name))
        return super().__getattribute__(name)

    @property
    def __name__(cls):
        CALLS.append("meta.__name__")
        return "Fake"


class Hostile(metaclass=Meta):
    def __init__(self):
        self.title = "report"
        self.count = 3
        self.nested = [1, {"k": "v"}]

    def __repr__(self):
        CALLS.append("__repr__")
        raise RuntimeError("repr called")

    def __str__(self):
        CALLS.append("__str__")
        raise RuntimeError("str called")

    def __getattr__(self, name):
        CALLS.append(("__getattr__", name))
        raise AttributeError(name)

    def __getattribute__(self, name):
        CALLS.append(("__getattribute__", name))
        return object.__getattribute__(self, name)

    def __len__(self):
        CALLS.append("__len__")
        return 0

    def __iter__(self):
        CALLS.append("__iter__")
        return iter(())

    def __eq__(self, other):
        CALLS.append("__eq__")
        return False

    def __hash__(self):
        CALLS.append("__hash__")
        return 1

    def __bool__(self):
        CALLS.append("__bool__")
        return True

    def __format__(self, spec):
        CALLS.append("__format__")
        return ""

    @property
    def computed(self):
        CALLS.append("property")
        return 1

    @property
    def __class__(self):
        CALLS.append("__class__")
        return dict


class FakeDict:
    @property
    def __dict__(self):
        CALLS.append("__dict__ property")
        return {"leaked": True}


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = "set"

    def __getattribute__(self, name):
        CALLS.append(("__getattribute__", name))
        return object.__getattribute__(self, name)


class RecordingDict(dict):
    def items(self):
        CALLS.append("items")
        return iter(())

    def __iter__(self):
        CALLS.append("__iter__")
        return iter(())

    def __len__(self):
        CALLS.append("__len__")
        return 0

    def __getitem__(self, key):
        CALLS.append("__getitem__")
        raise KeyError(key)


@dataclasses.dataclass
class Ticket:
    title: str
    priority: int
    tags: list[str]
    owner: "Person"
    due: Optional[int] = None


@dataclasses.dataclass(slots=True)
class Point:
    x: int
    y: int


class Color(enum.Enum):
    RED = "red"


def counting_handles():
    table = {}

    def handle_of(obj):
        return table.setdefault(id(obj), f"object-{len(table) + 1}")

    return handle_of


def nodes(tree):
    """Every descriptor in an inspect result."""
    if isinstance(tree, dict):
        found = [tree] if "qualname" in tree else []
        for value in tree.values():
            found += nodes(value)
        return found
    if isinstance(tree, list):
        return [n for item in tree for n in nodes(item)]
    return []


class NoHooks(unittest.TestCase):
    def setUp(self):
        self.hostile = Hostile()
        CALLS.clear()

    def test_descriptor_and_inspect_call_nothing(self):
        d = descriptor(self.hostile, "object-1")
        self.assertEqual(d, {"handle": "object-1", "type": "Hostile", "module": __name__,
                             "qualname": "Hostile"})
        shown = inspect_object(self.hostile, counting_handles(), depth=3, limit=100)
        self.assertEqual(CALLS, [])
        fields = {f["name"]: f["value"] for f in shown["fields"]}
        self.assertEqual(list(fields), ["title", "count", "nested"])
        self.assertEqual(fields["title"]["value"], "report")
        self.assertEqual(fields["count"]["value"], 3)
        self.assertEqual(fields["nested"]["items"][1]["entries"][0]["value"]["value"], "v")
        self.assertNotIn("computed", fields)

    def test_class_itself_with_hostile_metaclass(self):
        shown = inspect_object(Hostile, counting_handles(), depth=2)
        self.assertEqual(CALLS, [])
        self.assertEqual(shown["kind"], "class")
        self.assertEqual(shown["type"], "Meta")
        self.assertIn("computed", shown["attributes"])
        summary = describe.summarize(Hostile, context_values=True)
        self.assertEqual(CALLS, [])
        self.assertEqual(summary["kind"], "class")

    def test_summary_calls_nothing(self):
        summary = describe.summarize(self.hostile, context_values=True)
        self.assertEqual(CALLS, [])
        self.assertEqual(summary["fields"], {"title": "str", "count": "int", "nested": "list"})

    def test_class_defined_dict_property_is_not_called(self):
        shown = inspect_object(FakeDict(), counting_handles())
        self.assertEqual(CALLS, [])
        self.assertNotIn("fields", shown)

    def test_slots_read_through_member_descriptors(self):
        shown = inspect_object(Slotted(), counting_handles())
        self.assertEqual(CALLS, [])
        self.assertEqual([(f["name"], f["value"]["value"]) for f in shown["fields"]], [("a", "set")])

    def test_dict_subclass_overrides_are_bypassed(self):
        data = RecordingDict(a=1, b=2)
        shown = inspect_object(data, counting_handles())
        CALLS_seen = list(CALLS)
        self.assertEqual(CALLS_seen, [])
        self.assertEqual(shown["length"], 2)
        self.assertEqual([e["key"]["value"] for e in shown["entries"]], ["a", "b"])
        summary = describe.summarize(data, context_values=True)
        self.assertEqual(CALLS, [])
        self.assertEqual(summary["keys"], {"a": "int", "b": "int"})


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


class Related(unittest.TestCase):
    def test_words(self):
        self.assertEqual(statement_words("summarize ticket.body in 3 words; ticket2 x_1 ticket"),
                         ["summarize", "ticket", "body", "in", "words", "ticket2", "x_1"])

    def frame_under_test(self):
        ticket = Ticket("Broken login", 2, ["auth"], None)
        summary_limit = 3
        name = "Ada"
        body = "b" * 600
        tags = ["urgent", "auth"]
        big = list(range(100))
        config = {"mode": "fast", "retries": 2}
        tick = "must not match ticket"
        hostile = Hostile()
        emails = {"ada@example.com": 1, "level": 2}
        CALLS.clear()
        frame = sys._getframe()
        statement = ("summary = summarize ticket.body for name in summary_limit words using tags, big, config, "
                     "TABLE, hostile, emails and len")
        rich = related_objects(frame, statement, context_values=True)
        bare = related_objects(frame, statement, context_values=False, handle_of=counting_handles())
        again = related_objects(frame, statement, context_values=True)
        summary = None
        return rich, bare, again, summary

    def test_names_values_and_structure(self):
        rich, bare, again, _ = self.frame_under_test()
        self.assertEqual(CALLS, [])
        self.assertEqual(rich, again)
        by_name = {entry["name"]: entry for entry in rich}
        self.assertEqual([e["name"] for e in rich], ["summarize", "ticket", "body", "name", "summary_limit", "tags",
                                                     "big", "config", "TABLE", "hostile", "emails"])
        self.assertEqual(by_name["summarize"]["scope"], "global")
        self.assertEqual(by_name["summarize"]["signature"], "summarize(text, limit, *, style)")
        self.assertEqual(by_name["ticket"]["scope"], "local")
        self.assertNotIn("value", by_name["ticket"])
        self.assertEqual(by_name["ticket"]["fields"], {"title": "str", "priority": "int", "tags": "list",
                                                       "owner": "NoneType", "due": "NoneType"})
        self.assertEqual(by_name["name"]["value"], "Ada")
        self.assertEqual(by_name["summary_limit"]["value"], 3)
        self.assertEqual(by_name["tags"]["value"], ["urgent", "auth"])
        self.assertEqual(by_name["config"]["value"], {"mode": "fast", "retries": 2})
        self.assertEqual(by_name["TABLE"]["value"], {"low": 1, "high": 2})
        self.assertNotIn("value", by_name["body"])
        self.assertEqual((by_name["body"]["length"], by_name["body"]["preview"]), (600, "b" * 200))
        self.assertNotIn("value", by_name["big"])
        self.assertEqual((by_name["big"]["length"], by_name["big"]["item_type"]), (100, "int"))
        self.assertEqual(by_name["hostile"]["fields"]["title"], "str")

    def test_context_values_off(self):
        _, bare, _, _ = self.frame_under_test()
        for entry in bare:
            with self.subTest(name=entry["name"]):
                self.assertNotIn("value", entry)
                self.assertNotIn("preview", entry)
                self.assertTrue(entry["handle"].startswith("object-"))
        by_name = {entry["name"]: entry for entry in bare}
        self.assertEqual(by_name["config"]["keys"], {"mode": "str", "retries": "int"})
        self.assertEqual(by_name["emails"]["keys"], {"level": "int"})
        self.assertEqual(by_name["name"]["length"], 3)

    def test_unbound_local_is_not_described_by_a_global(self):
        def program():
            found = related_objects(sys._getframe(), "TABLE and summarize", context_values=True)
            TABLE = None
            return [e["name"] for e in found], TABLE

        self.assertEqual(program()[0], ["summarize"])

    def test_enclosing_scope_and_limit(self):
        names = " ".join(f"v{i}" for i in range(30))
        namespace = {f"v{i}": i for i in range(30)}
        exec("import sys\nframe = sys._getframe()", namespace)
        found = related_objects(namespace["frame"], names, context_values=True)
        self.assertEqual(len(found), describe.RELATED_LIMIT)
        self.assertEqual([e["value"] for e in found], list(range(describe.RELATED_LIMIT)))
        captured = "cell value"

        def inner():
            return related_objects(sys._getframe(), "captured", context_values=True), captured

        self.assertEqual(inner()[0][0]["scope"], "enclosing")


class FrameObjects(unittest.TestCase):
    def test_listing_is_bounded_and_skips_dunders(self):
        namespace = {f"name{i}": i for i in range(60)}
        namespace["__secret__"] = 1
        exec("import sys\nframe = sys._getframe()", namespace)
        listed = frame_objects(namespace["frame"])
        self.assertEqual(len(listed), 40)
        self.assertFalse(any(entry["name"].startswith("__") for entry in listed))
        self.assertEqual(listed[0], {"name": "name0", "type": "int", "module": "builtins", "qualname": "int",
                                     "value": 0})

    def test_function_locals_without_values(self):
        def program():
            text = "t" * 300
            count = 2
            return frame_objects(sys._getframe(), context_values=False, handle_of=counting_handles())

        listed = program()
        self.assertEqual([e["name"] for e in listed], ["text", "count"])
        self.assertNotIn("value", listed[1])
        self.assertEqual(listed[0]["handle"], "object-1")
        with_values = frame_objects(sys._getframe())
        self.assertTrue(any(e["name"] == "self" for e in with_values))


if __name__ == "__main__":
    unittest.main()
