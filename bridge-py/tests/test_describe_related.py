"""Request content (SPEC §5.1): which names of a block's text become related objects, in which scope,
with values inlined only for small primitives, and what frame_objects lists and bounds."""

import sys
import unittest

from aiython_bridge import describe
from aiython_bridge.describe import frame_objects, related_objects, statement_words
from tests import describe_fixtures
from tests.describe_fixtures import CALLS, Hostile, Ticket, counting_handles

# Globals the block texts name: a frame of this module finds them in its globals.
TABLE, summarize = describe_fixtures.TABLE, describe_fixtures.summarize


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
        # read by the tool through the frame only
        del ticket, summary_limit, name, body, tags, big, config, tick, hostile, emails
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
            listed = frame_objects(sys._getframe(), context_values=False, handle_of=counting_handles())
            del text, count  # read by the tool through the frame only
            return listed

        listed = program()
        self.assertEqual([e["name"] for e in listed], ["text", "count"])
        self.assertNotIn("value", listed[1])
        self.assertEqual(listed[0]["handle"], "object-1")
        with_values = frame_objects(sys._getframe())
        self.assertTrue(any(e["name"] == "self" for e in with_values))

    def test_hidden_names_are_left_out_wherever_they_stand(self):
        """Dunders (a module's own and any other) and aiython's names are not listed; a name with
        one underscore, or underscores at one end only, is."""
        shown = ["_one", "__front", "back__", "_", "plain"]
        hidden = ["__name__", "__custom__", "___", "_aiython_runtime", "__"]
        namespace = {name: 1 for name in hidden + shown}
        exec("import sys\nframe = sys._getframe()", namespace)
        listed = [entry["name"] for entry in frame_objects(namespace["frame"])]
        self.assertEqual([name for name in listed if name not in ("sys", "frame")], shown)
        related = [entry["name"] for entry in related_objects(namespace["frame"], " ".join(hidden + shown), context_values=True)]
        self.assertEqual(related, shown)


if __name__ == "__main__":
    unittest.main()
