"""Type contracts (SPEC §6): checks of live objects, unsupported annotations, and resolving annotations.

Each test names one behaviour; rejected values are asserted by their full message text, since
that text goes to the model and to the user verbatim.
"""

import math
import sys
import types
import typing
import unittest
from typing import Annotated, Any, Callable, List, Literal, Optional, Required

from aiython_bridge.contracts import check_object, check_value, is_supported, json_schema, resolve_annotation, type_repr
from aiython_bridge.contracts.walk import MAX_ITEMS_CHECKED
from aiython_bridge.errors import TypeContractError, UnsupportedAnnotation
from tests.contract_types import Color, Level, Ticket, Analysis, Tree, Order, Hostile, HostileList, Shape, Box, T, UserId


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
