"""Type contracts (SPEC §6): the JSON schema each annotation gives the model, and the names type_repr shows.

Each test names one behaviour; rejected values are asserted by their full message text, since
that text goes to the model and to the user verbatim.
"""

import json
import unittest
from typing import Annotated, Any, Callable, Dict, FrozenSet, List, Literal, Optional, Set, Tuple, Union

from aiython_bridge.contracts import is_supported, type_repr
from tests.contract_types import Color, Level, Planet, Ticket, Queue, Node, Job, Stamped, Analysis, Loose, Tree, Order, schema, T, UserId


class SchemaTest(unittest.TestCase):
    def test_primitives(self):
        self.assertEqual(schema(int), {"type": "integer"})
        self.assertEqual(schema(float), {"type": "number"})
        self.assertEqual(schema(str), {"type": "string"})
        self.assertEqual(schema(bool), {"type": "boolean"})
        self.assertEqual(schema(None), {"type": "null"})
        self.assertEqual(schema(type(None)), {"type": "null"})
        self.assertEqual(schema(Any), {})
        self.assertEqual(schema(object), {})

    def test_sequences(self):
        self.assertEqual(schema(list[int]), {"type": "array", "items": {"type": "integer"}})
        self.assertEqual(schema(List[int]), {"type": "array", "items": {"type": "integer"}})
        self.assertEqual(schema(list), {"type": "array"})
        self.assertEqual(schema(List), {"type": "array"})
        self.assertEqual(schema(set[str]), {"type": "array", "items": {"type": "string"}, "uniqueItems": True})
        self.assertEqual(schema(Set[str]), {"type": "array", "items": {"type": "string"}, "uniqueItems": True})
        self.assertEqual(schema(FrozenSet[int]), {"type": "array", "items": {"type": "integer"}, "uniqueItems": True})
        self.assertEqual(schema(tuple[int, ...]), {"type": "array", "items": {"type": "integer"}})

    def test_fixed_tuples_use_prefix_items(self):
        expected = {
            "type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}],
            "minItems": 2, "maxItems": 2, "items": False,
        }
        self.assertEqual(schema(tuple[int, str]), expected)
        self.assertEqual(schema(Tuple[int, str]), expected)
        self.assertEqual(schema(tuple[()]),
                         {"type": "array", "prefixItems": [], "minItems": 0, "maxItems": 0, "items": False})

    def test_dicts(self):
        self.assertEqual(schema(dict[str, int]), {"type": "object", "additionalProperties": {"type": "integer"}})
        self.assertEqual(schema(Dict[str, int]), {"type": "object", "additionalProperties": {"type": "integer"}})
        self.assertEqual(schema(dict), {"type": "object"})
        self.assertEqual(schema(dict[Literal["a", "b"], int]), {
            "type": "object", "additionalProperties": {"type": "integer"}, "propertyNames": {"enum": ["a", "b"]},
        })
        self.assertEqual(schema(dict[Color, str]), {
            "type": "object", "additionalProperties": {"type": "string"}, "propertyNames": {"enum": ["red", "green"]},
        })

    def test_dict_with_non_string_keys_is_a_list_of_pairs(self):
        self.assertEqual(schema(dict[int, str]), {
            "type": "array",
            "items": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}],
                      "minItems": 2, "maxItems": 2, "items": False},
            "description": "dict as a list of [key, value] pairs",
        })

    def test_unions_are_any_of(self):
        expected = {"anyOf": [{"type": "integer"}, {"type": "null"}]}
        self.assertEqual(schema(Optional[int]), expected)
        self.assertEqual(schema(int | None), expected)
        self.assertEqual(schema(Union[int, str]), {"anyOf": [{"type": "integer"}, {"type": "string"}]})

    def test_literal_is_enum(self):
        self.assertEqual(schema(Literal["low", "high"]), {"enum": ["low", "high"]})
        self.assertEqual(schema(Literal[1, True, None]), {"enum": [1, True, None]})
        self.assertEqual(schema(Literal[Color.RED]), {"enum": ["red"]})

    def test_typeddict_required_and_optional_keys(self):
        self.assertEqual(schema(Analysis), {
            "type": "object",
            "properties": {"severity": {"enum": ["low", "high"]}, "note": {"type": "string"}},
            "additionalProperties": False,
            "required": ["severity"],
        })
        self.assertEqual(schema(Loose), {
            "type": "object",
            "properties": {"name": {"type": "string"}, "count": {"type": "integer"}},
            "additionalProperties": False,
            "required": ["name"],
        })

    def test_dataclass_fields_without_defaults_are_required(self):
        self.assertEqual(schema(Ticket), {
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "priority": {"type": "integer"},
                "tags": {"type": "array", "items": {"type": "string"}},
            },
            "additionalProperties": False,
            "required": ["title"],
        })

    def test_dataclass_init_false_fields_are_left_out(self):
        self.assertEqual(schema(Stamped)["properties"], {"text": {"type": "string"}})

    def test_enum_lists_member_values(self):
        self.assertEqual(schema(Color), {"enum": ["red", "green"]})
        self.assertEqual(schema(Level), {"enum": [1, 2]})

    def test_annotated_string_becomes_description(self):
        self.assertEqual(schema(Annotated[int, "number of open tickets"]),
                         {"type": "integer", "description": "number of open tickets"})
        self.assertEqual(schema(Annotated[int, 42]), {"type": "integer"})

    def test_newtype_is_its_supertype(self):
        self.assertEqual(schema(UserId), {"type": "integer"})

    def test_program_class_is_returned_by_handle(self):
        self.assertEqual(schema(Order),
                         {"description": "an object of class Order; return it by handle or expression, not as JSON"})

    def test_values_json_cannot_express_fall_back_to_handles(self):
        job = schema(Job)
        self.assertEqual(set(job), {"description"})
        self.assertIn("an object of class Job; return it by handle", job["description"])
        self.assertIn("Callable[[], None]", job["description"])
        self.assertEqual(schema(Planet), {"description": "a member of enum Planet; return it by handle or "
                                                         "expression, not as JSON (its values are not JSON scalars)"})
        self.assertTrue(is_supported(Job))

    def test_recursive_types_terminate(self):
        node = schema(Node)
        self.assertEqual(node["properties"]["children"]["items"],
                         {"type": "object", "description": "a nested Node, same fields as the enclosing Node"})
        tree = schema(Tree)
        self.assertEqual(tree["properties"]["children"]["items"]["type"], "object")

    def test_schema_is_compact(self):
        text = json.dumps(schema(dict[str, list[Queue]]), separators=(",", ":"))
        self.assertLess(len(text), 600, text)


class TypeReprTest(unittest.TestCase):
    def test_spellings(self):
        cases = [
            (int, "int"), (None, "None"), (type(None), "None"), (Any, "Any"), (object, "object"),
            (list[int], "list[int]"), (List[int], "list[int]"), (List, "list"),
            (dict[str, int], "dict[str, int]"), (Dict[str, List[int]], "dict[str, list[int]]"),
            (Literal["low", "high"], "Literal['low', 'high']"), (Literal[Color.RED, 1], "Literal[Color.RED, 1]"),
            (Optional[int], "int | None"), (int | None, "int | None"), (Union[int, str, None], "int | str | None"),
            (tuple[int, str], "tuple[int, str]"), (tuple[int, ...], "tuple[int, ...]"), (tuple[()], "tuple[()]"),
            (Tuple[int, str], "tuple[int, str]"), (set[str], "set[str]"),
            (Ticket, "Ticket"), (Analysis, "Analysis"), (Color, "Color"), (UserId, "UserId"),
            (Annotated[int, "note"], "int"), (Callable[[int], str], "Callable[[int], str]"), (T, "T"),
            (Literal, "Literal"), ("Ticket", "Ticket"),
        ]
        for tp, text in cases:
            with self.subTest(text=text):
                self.assertEqual(type_repr(tp), text)

    def test_classes_defined_in_functions_drop_the_locals_prefix(self):
        def make():
            class Local:
                pass
            return Local

        self.assertEqual(type_repr(list[make()]), "list[Local]")


if __name__ == "__main__":
    unittest.main()
