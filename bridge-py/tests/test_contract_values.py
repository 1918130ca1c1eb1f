"""Type contracts (SPEC §6): strict checks of JSON values, with exact conversion to the annotated type.

Each test names one behaviour; rejected values are asserted by their full message text, since
that text goes to the model and to the user verbatim.
"""

import math
import unittest
from typing import Annotated, Any, FrozenSet, Literal, Optional

from aiython_bridge.contracts import check_value
from aiython_bridge.errors import AIError, TypeContractError
from tests.contract_types import Color, Level, Ticket, Queue, Node, Positive, Job, Stamped, Analysis, Loose, Order, UserId


class CheckValueTest(unittest.TestCase):
    def assertRejects(self, value, tp, message, path="value"):
        with self.assertRaises(TypeContractError) as caught:
            check_value(value, tp, path)
        self.assertEqual(str(caught.exception), message)
        self.assertIsInstance(caught.exception, AIError)

    def test_primitives_accepted(self):
        self.assertEqual(check_value(3, int), 3)
        self.assertEqual(check_value(2.5, float), 2.5)
        self.assertEqual(check_value("x", str), "x")
        self.assertIs(check_value(False, bool), False)
        self.assertIsNone(check_value(None, None))
        self.assertEqual(check_value({"any": [1]}, Any), {"any": [1]})

    def test_primitives_are_strict(self):
        self.assertRejects(True, int, "n: expected int, got bool True", path="n")
        self.assertRejects(1, float, "x: expected float, got int 1", path="x")
        self.assertRejects("3", int, "count: expected int, got str '3'", path="count")
        self.assertRejects(1, bool, "value: expected bool, got int 1")
        self.assertRejects(3, str, "value: expected str, got int 3")
        self.assertRejects(0, None, "value: expected None, got int 0")
        self.assertRejects(None, int, "value: expected int, got None")

    def test_floats_must_be_finite(self):
        self.assertRejects(math.nan, float, "value: expected float, got float nan (not finite)")
        self.assertRejects(math.inf, float, "value: expected float, got float inf (not finite)")

    def test_literal(self):
        self.assertEqual(check_value("bug", Literal["bug", "billing"], "kind"), "bug")
        self.assertRejects("feature", Literal["bug", "billing"],
                           "kind: expected Literal['bug', 'billing'], got str 'feature'", path="kind")
        self.assertRejects(True, Literal[1, 2], "value: expected Literal[1, 2], got bool True")
        self.assertIs(check_value("red", Literal[Color.RED]), Color.RED)

    def test_spec_example_message(self):
        analysis_type = dict[str, Literal["low", "high"]]
        self.assertRejects({"severity": "medium"}, analysis_type,
                           "analysis['severity']: expected Literal['low', 'high'], got str 'medium'", path="analysis")

    def test_dataclass_nested_in_list_in_dict_is_built(self):
        value = {"ops": [{"name": "triage", "color": "red",
                          "tickets": [{"title": "crash", "tags": ["p1"]}, {"title": "typo", "priority": 5}]}]}
        result = check_value(value, dict[str, list[Queue]], "queues")
        queue = result["ops"][0]
        self.assertIsInstance(queue, Queue)
        self.assertIs(queue.color, Color.RED)
        self.assertEqual(queue.tickets, [Ticket("crash", 3, ["p1"]), Ticket("typo", 5, [])])

    def test_dataclass_errors_name_the_field_path(self):
        value = {"ops": [{"name": "triage", "color": "red", "tickets": [{"title": 5}]}]}
        self.assertRejects(value, dict[str, list[Queue]],
                           "queues['ops'][0].tickets[0].title: expected str, got int 5", path="queues")
        self.assertRejects({"priority": 1}, Ticket, "t: expected Ticket, got dict missing required field 'title'", path="t")
        self.assertRejects({"title": "a", "owner": "me"}, Ticket,
                           "t: expected Ticket, got dict with unexpected field 'owner'", path="t")
        self.assertRejects({"text": "a", "created": 1.0}, Stamped,
                           "value: expected Stamped, got dict with unexpected field 'created'")
        self.assertRejects(["crash"], Ticket, "value: expected Ticket, got list of length 1")

    def test_dataclass_constructor_refusal_is_a_contract_error(self):
        self.assertEqual(check_value({"amount": 2}, Positive), Positive(2))
        self.assertRejects({"amount": -1}, Positive,
                           "value: expected Positive, got dict that Positive() rejected "
                           "(ValueError: 'amount must be positive')")

    def test_dataclass_json_cannot_express_is_refused_with_a_reason(self):
        with self.assertRaises(TypeContractError) as caught:
            check_value({"name": "a", "callback": None}, Job)
        self.assertIn("value: expected Job, got dict (Job cannot be built from JSON: Callable[[], None]",
                      str(caught.exception))

    def test_typeddict_with_optional_keys(self):
        self.assertEqual(check_value({"severity": "low"}, Analysis), {"severity": "low"})
        self.assertEqual(check_value({"severity": "high", "note": "n"}, Analysis), {"severity": "high", "note": "n"})
        self.assertEqual(check_value({"name": "x"}, Loose), {"name": "x"})
        self.assertRejects({"note": "n"}, Analysis, "a: expected Analysis, got dict missing required key 'severity'", path="a")
        self.assertRejects({"count": 1}, Loose, "value: expected Loose, got dict missing required key 'name'")
        self.assertRejects({"severity": "low", "extra": 1}, Analysis,
                           "value: expected Analysis, got dict with unexpected key 'extra'")
        self.assertRejects({"severity": "low", "note": 2}, Analysis, "value['note']: expected str, got int 2")

    def test_typeddict_result_is_a_new_plain_dict(self):
        value = {"severity": "low"}
        result = check_value(value, Analysis)
        self.assertIs(type(result), dict)
        self.assertIsNot(result, value)

    def test_list_to_tuple_and_set(self):
        self.assertEqual(check_value([1, "a"], tuple[int, str]), (1, "a"))
        self.assertEqual(check_value([1, 2, 3], tuple[int, ...]), (1, 2, 3))
        self.assertEqual(check_value([], tuple[()]), ())
        self.assertEqual(check_value(["a", "b"], set[str]), {"a", "b"})
        self.assertIs(type(check_value([1], FrozenSet[int])), frozenset)
        self.assertEqual(check_value([[1, "red"]], list[tuple[Level, Color]]), [(Level.LOW, Color.RED)])
        self.assertRejects([1, "a", 2], tuple[int, str], "pair: expected tuple[int, str], got list of length 3", path="pair")
        self.assertRejects([1, 1], tuple[int, str], "value[1]: expected str, got int 1")
        self.assertRejects([1, True], set[int], "value[1]: expected int, got bool True")
        self.assertRejects({"a": 1}, list[int], "value: expected list[int], got dict")

    def test_enum_by_value(self):
        self.assertIs(check_value("green", Color), Color.GREEN)
        self.assertIs(check_value(2, Level), Level.HIGH)
        self.assertRejects("purple", Color, "c: expected Color, got str 'purple'", path="c")
        self.assertRejects(True, Level, "value: expected Level, got bool True")
        self.assertRejects("RED", Color, "value: expected Color, got str 'RED'")

    def test_enum_keys_and_values_in_dicts(self):
        self.assertEqual(check_value({"red": 1}, dict[Color, Level]), {Color.RED: Level.LOW})
        self.assertRejects({"blue": 1}, dict[Color, int], "value['blue'] (key): expected Color, got str 'blue'")

    def test_dict_with_non_string_keys_from_pairs(self):
        self.assertEqual(check_value([[1, "a"], [2, "b"]], dict[int, str]), {1: "a", 2: "b"})
        self.assertRejects({"1": "a"}, dict[int, str],
                           "value: expected dict[int, str], got dict "
                           "(a dict with non-string keys is written as [key, value] pairs)")
        self.assertRejects([[1, "a"], [1, "b"]], dict[int, str], "value[1]: duplicate key int 1")
        self.assertRejects([[1, "a", 3]], dict[int, str], "value[0]: expected a [key, value] pair, got list of length 3")

    def test_unions_try_members_in_order(self):
        self.assertEqual(check_value(1, int | float), 1)
        self.assertEqual(check_value(1.5, int | float), 1.5)
        self.assertIsNone(check_value(None, Optional[Ticket]))
        self.assertEqual(check_value({"title": "t"}, Optional[Ticket]), Ticket("t"))
        self.assertRejects("x", Optional[int], "value: expected int | None, got str 'x'")

    def test_union_reports_the_member_whose_shape_matched(self):
        self.assertRejects([1, "a"], Optional[list[int]], "value[1]: expected int, got str 'a'")
        self.assertRejects({}, Optional[Analysis], "value: expected Analysis, got dict missing required key 'severity'")

    def test_annotated_and_newtype_check_their_inner_type(self):
        self.assertEqual(check_value(4, Annotated[int, "n"]), 4)
        self.assertEqual(check_value(7, UserId), 7)
        self.assertRejects("7", UserId, "value: expected int, got str '7'")

    def test_program_class_cannot_come_from_json(self):
        self.assertRejects({}, Order, "o: expected Order, got dict", path="o")

    def test_long_strings_are_truncated(self):
        self.assertRejects("x" * 300, int, f"value: expected int, got str '{'x' * 50}'... (300 chars)")

    def test_recursive_values_convert(self):
        value = {"label": "root", "children": [{"label": "leaf"}]}
        self.assertEqual(check_value(value, Node), Node("root", [Node("leaf")]))


if __name__ == "__main__":
    unittest.main()
