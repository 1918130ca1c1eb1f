"""Type contracts (SPEC §6): schemas, strict JSON checks with exact conversion, object checks, resolution.

Each test names one behaviour; rejected values are asserted by their full message text, since
that text goes to the model and to the user verbatim.
"""

import dataclasses
import enum
import json
import math
import sys
import types
import typing
import unittest
from typing import (
    Annotated, Any, Callable, Dict, FrozenSet, Generic, List, Literal, NewType, NotRequired,
    Optional, Protocol, Required, Set, Tuple, TypedDict, TypeVar, Union,
)

from aiython_bridge.contracts import (
    check_object, check_value, is_supported, json_schema, resolve_annotation, type_repr,
)
from aiython_bridge.contracts.walk import MAX_ITEMS_CHECKED
from aiython_bridge.errors import AIError, TypeContractError, UnsupportedAnnotation


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Planet(enum.Enum):
    EARTH = (5.97, 6.37)


@dataclasses.dataclass
class Ticket:
    title: str
    priority: int = 3
    tags: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Queue:
    name: str
    tickets: list[Ticket]
    color: Color


@dataclasses.dataclass
class Node:
    label: str
    children: list["Node"] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Positive:
    amount: int

    def __post_init__(self):
        if self.amount <= 0:
            raise ValueError("amount must be positive")


@dataclasses.dataclass
class Job:
    name: str
    callback: Callable[[], None]


@dataclasses.dataclass
class Stamped:
    text: str
    created: float = dataclasses.field(init=False, default=0.0)


class Analysis(TypedDict):
    severity: Literal["low", "high"]
    note: NotRequired[str]


class Loose(TypedDict, total=False):
    name: Required[str]
    count: int


class Tree(TypedDict):
    value: int
    children: list["Tree"]


class Order:
    """A program class: returned by handle, never as JSON."""


class Hostile:
    """A program object whose hooks must never run while it is checked or described."""

    def __repr__(self):
        raise AssertionError("__repr__ called")

    def __str__(self):
        raise AssertionError("__str__ called")

    def __eq__(self, other):
        raise AssertionError("__eq__ called")

    __hash__ = object.__hash__


class HostileList(list):
    def __iter__(self):
        raise AssertionError("__iter__ called")

    def __len__(self):
        raise AssertionError("__len__ called")


class Shape(Protocol):
    def area(self) -> float: ...


T = TypeVar("T")


class Box(Generic[T]):
    pass


UserId = NewType("UserId", int)


def schema(tp):
    return json_schema(tp)


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


class CheckObjectTest(unittest.TestCase):
    def assertRejects(self, obj, tp, message, path="value"):
        with self.assertRaises(TypeContractError) as caught:
            check_object(obj, tp, path)
        self.assertEqual(str(caught.exception), message)

    def test_identity_is_kept(self):
        for obj, tp in [([1, 2], list[int]), ({"a": [1]}, dict[str, list[int]]), (Ticket("t"), Ticket),
                        (Order(), Order), ({"severity": "low"}, Analysis), ((1, "a"), tuple[int, str]),
                        ({1, 2}, set[int]), (Color.RED, Color), (Hostile(), Any)]:
            with self.subTest(tp=type_repr(tp)):
                self.assertIs(check_object(obj, tp), obj)

    def test_nothing_is_converted(self):
        self.assertRejects([1, "a"], tuple[int, str], "value: expected tuple[int, str], got list of length 2")
        self.assertRejects({"title": "t"}, Ticket, "value: expected Ticket, got dict")
        self.assertRejects("red", Color, "value: expected Color, got str 'red'")

    def test_primitives_are_strict(self):
        self.assertRejects(True, int, "n: expected int, got bool True", path="n")
        self.assertRejects(1, float, "value: expected float, got int 1")
        self.assertIs(check_object(Level.LOW, int), Level.LOW)
        self.assertEqual(check_object(math.inf, float), math.inf)

    def test_literal_compares_value_and_type(self):
        self.assertEqual(check_object("low", Literal["low", "high"]), "low")
        self.assertRejects(True, Literal[1], "value: expected Literal[1], got bool True")
        self.assertIs(check_object(Color.RED, Literal[Color.RED]), Color.RED)
        self.assertRejects("red", Literal[Color.RED], "value: expected Literal[Color.RED], got str 'red'")

    def test_containers_are_checked_element_wise(self):
        self.assertRejects([1, "a"], list[int], "xs[1]: expected int, got str 'a'", path="xs")
        self.assertRejects({"a": 1, "b": "2"}, dict[str, int], "d['b']: expected int, got str '2'", path="d")
        self.assertRejects({1: 1}, dict[str, int], "d[1] (key): expected str, got int 1", path="d")
        self.assertRejects({"x", 1}, set[str], "s element: expected str, got int 1", path="s")
        self.assertRejects(frozenset([1]), set[int], "value: expected set[int], got frozenset of size 1")
        self.assertRejects((1, 2, 3), tuple[int, int], "value: expected tuple[int, int], got tuple of length 3")

    def test_typeddict_keys_and_values(self):
        self.assertRejects({"note": "x"}, Analysis, "value: expected Analysis, got dict missing required key 'severity'")
        self.assertRejects({"severity": "low", 3: 1}, Analysis, "value: expected Analysis, got dict with unexpected key 3")
        self.assertRejects({"severity": "mid"}, Analysis,
                           "value['severity']: expected Literal['low', 'high'], got str 'mid'")

    def test_unions(self):
        self.assertIsNone(check_object(None, Optional[Ticket]))
        self.assertRejects(Order(), Optional[Ticket], "t: expected Ticket | None, got Order", path="t")

    def test_big_containers_are_checked_up_to_the_bound(self):
        late = list(range(MAX_ITEMS_CHECKED + 10))
        late[MAX_ITEMS_CHECKED + 5] = "late"
        self.assertIs(check_object(late, list[int]), late)
        early = list(range(MAX_ITEMS_CHECKED + 10))
        early[5] = "early"
        self.assertRejects(early, list[int], "value[5]: expected int, got str 'early'")

    def test_program_hooks_never_run(self):
        self.assertRejects(Hostile(), int, "value: expected int, got Hostile")
        self.assertRejects([Hostile()], list[str], "value[0]: expected str, got Hostile")
        self.assertRejects({Hostile(): 1}, dict[str, int], "value[<Hostile object>] (key): expected str, got Hostile")
        hostile = HostileList([1, "a"])
        self.assertRejects(hostile, list[int], "value[1]: expected int, got str 'a'")
        self.assertRejects(Hostile(), Literal["a"], "value: expected Literal['a'], got Hostile")

    def test_cycles_terminate(self):
        tree = {"value": 1, "children": []}
        tree["children"].append(tree)
        self.assertIs(check_object(tree, Tree), tree)
        loop = []
        loop.append(loop)
        self.assertRejects(loop, list[list[int]], "value[0][0]: expected int, got list of length 1")


class UnsupportedTest(unittest.TestCase):
    def assertUnsupported(self, tp, fragment):
        self.assertFalse(is_supported(tp))
        with self.assertRaises(UnsupportedAnnotation) as caught:
            json_schema(tp)
        message = str(caught.exception)
        self.assertIn(fragment, message)
        self.assertIn("Supported: int, float, str, bool, None, Any", message)

    def test_unsupported_forms(self):
        self.assertUnsupported(Callable[[int], int], "unsupported annotation Callable[[int], int]: callables")
        self.assertUnsupported(T, "unsupported annotation T: type variables")
        self.assertUnsupported(Shape, "unsupported annotation Shape: Protocol classes")
        self.assertUnsupported(Box[int], "unsupported annotation Box[int]: a subscripted generic class")
        self.assertUnsupported(Required[int], "Required, NotRequired and ReadOnly belong on TypedDict keys only")
        self.assertUnsupported(Literal, "unsupported annotation Literal")
        self.assertUnsupported(Literal[b"x"], "Literal values must be str, int, bool, None or Enum members")
        self.assertUnsupported(list[Callable[[], int]],
                               "unsupported Callable[[], int] in annotation list[Callable[[], int]]: callables")

    def test_supported_forms(self):
        for tp in (int, Optional[list[Ticket]], Analysis, Color, Order, Box, UserId, Annotated[str, "x"]):
            with self.subTest(tp=type_repr(tp)):
                self.assertTrue(is_supported(tp))

    def test_checks_refuse_unsupported_types(self):
        with self.assertRaises(UnsupportedAnnotation):
            check_value(1, T)
        with self.assertRaises(UnsupportedAnnotation):
            check_object(len, Callable[[], int])


class ResolveAnnotationTest(unittest.TestCase):
    def setUp(self):
        self.module = {"__builtins__": __builtins__, "Ticket": Ticket, "Color": Color, "typing": typing}

    def test_typing_names_fall_back_to_the_typing_module(self):
        frame_globals = {"__builtins__": __builtins__}
        self.assertEqual(resolve_annotation("Literal['bug', 'billing']", frame_globals), Literal["bug", "billing"])
        self.assertEqual(resolve_annotation("Optional[int]", frame_globals), Optional[int])
        self.assertEqual(resolve_annotation("Annotated[int, 'n']", frame_globals), Annotated[int, "n"])
        self.assertEqual(frame_globals, {"__builtins__": __builtins__}, "namespaces must not change")

    def test_program_names_win_over_typing(self):
        Any_ = type("Any", (), {})
        self.assertIs(resolve_annotation("Any", {"Any": Any_}), Any_)
        self.assertIs(resolve_annotation("Ticket", {"Ticket": Order}, {"Ticket": Ticket}), Ticket)

    def test_builtins_generic_and_pep604(self):
        self.assertEqual(resolve_annotation("list[Ticket]", self.module), list[Ticket])
        self.assertEqual(resolve_annotation("dict[str, int] | None", self.module), dict[str, int] | None)
        self.assertEqual(resolve_annotation("typing.List[int]", self.module), List[int])
        self.assertIs(resolve_annotation("None", self.module), None)
        self.assertEqual(resolve_annotation("Literal[-1, 1]", self.module), Literal[-1, 1])

    def test_forward_references_resolve_against_the_namespaces(self):
        self.assertIs(resolve_annotation("'Ticket'", self.module), Ticket)
        self.assertEqual(resolve_annotation("list['Ticket']", self.module), list[Ticket])
        self.assertEqual(resolve_annotation("Optional['Ticket']", self.module), Optional[Ticket])
        self.assertEqual(resolve_annotation("dict[str, 'list[Color]']", self.module), dict[str, list[Color]])
        resolved = resolve_annotation("Annotated['Ticket', 'the ticket']", self.module)
        self.assertEqual(typing.get_args(resolved), (Ticket, "the ticket"))
        self.assertEqual(resolve_annotation("Literal['Ticket']", self.module), Literal["Ticket"])

    def test_failures_name_the_annotation(self):
        cases = [
            ("list[Tickt]", "cannot resolve annotation list[Tickt]: name 'Tickt' is not defined"),
            ("list[", "cannot resolve annotation list[: it is not valid Python"),
            ("typing.Nope", "cannot resolve annotation typing.Nope: AttributeError"),
            ("Callable[[int], int]", "unsupported annotation Callable[[int], int]: callables cannot be checked"),
        ]
        for text, fragment in cases:
            with self.subTest(text=text):
                with self.assertRaises(UnsupportedAnnotation) as caught:
                    resolve_annotation(text, self.module)
                self.assertIn(fragment, str(caught.exception))

    def test_calls_are_refused_and_never_run(self):
        calls = []
        namespace = {"make": lambda: calls.append(1) or int}
        with self.assertRaises(UnsupportedAnnotation) as caught:
            resolve_annotation("list[make()]", namespace)
        self.assertIn("Call is not allowed in an annotation", str(caught.exception))
        self.assertEqual(calls, [])

    def test_class_annotations_fall_back_to_typing_names(self):
        module = types.ModuleType("contracts_future_fixture")
        sys.modules[module.__name__] = module
        self.addCleanup(sys.modules.pop, module.__name__)
        exec(
            "from __future__ import annotations\n"
            "import dataclasses\n"
            "from typing import TypedDict\n"
            "@dataclasses.dataclass\n"
            "class Report:\n"
            "    kind: Literal['bug', 'billing']\n"
            "    count: Optional[int] = None\n"
            "class Row(TypedDict):\n"
            "    name: str\n"
            "    note: NotRequired[str]\n",
            module.__dict__,
        )
        self.assertEqual(check_value({"kind": "bug"}, module.Report), module.Report("bug", None))
        self.assertEqual(json_schema(module.Row)["required"], ["name"])
        report = resolve_annotation("list[Report]", module.__dict__)
        self.assertEqual(report, list[module.Report])

    @unittest.skipIf(sys.version_info < (3, 12), "`type X = ...` aliases exist from 3.12 on")
    def test_type_alias_statement_stands_for_its_value(self):
        namespace = {}
        exec("type Tags = list[str]", namespace)
        tags = resolve_annotation("Tags", namespace)
        self.assertEqual(json_schema(tags), {"type": "array", "items": {"type": "string"}})
        self.assertEqual(check_value(["a"], tags), ["a"])


if __name__ == "__main__":
    unittest.main()
