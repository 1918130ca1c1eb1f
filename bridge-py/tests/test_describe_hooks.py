"""Safe descriptions (SPEC §5.1, §5.2): describing, inspecting or summarizing a hostile object or
class calls no program hook (no __repr__, __getattr__, metaclass attribute, property, __dict__)."""

import unittest

from aiython_bridge import describe
from aiython_bridge.describe import descriptor, inspect_object
from tests.describe_fixtures import CALLS, FakeDict, Hostile, RecordingDict, Slotted, counting_handles


class NoHooks(unittest.TestCase):
    def setUp(self):
        self.hostile = Hostile()
        CALLS.clear()

    def test_descriptor_and_inspect_call_nothing(self):
        d = descriptor(self.hostile, "object-1")
        self.assertEqual(d, {"handle": "object-1", "type": "Hostile", "module": "tests.describe_fixtures",
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


if __name__ == "__main__":
    unittest.main()
