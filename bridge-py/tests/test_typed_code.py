"""Type contracts for all annotated code (`type_contracts = "all"`, typed_code/): which sites are
checked, with §6's contracts, the traceback ending on the program's line; and that "ai" prepares
exactly what a run without the setting prepares (same code bytes, same cache key).
"""

import marshal
import os
import shutil
import tempfile
import textwrap
import traceback
import unittest
from collections import UserList
from typing import Optional

from aiython_bridge.contracts import check_object
from aiython_bridge.errors import TypeContractError
from aiython_bridge.preparation import prepare
from aiython_bridge.typed_code.fast import exact_classes, fast_check


class _Server:
    channel = None


def _options(mode=None, configured=False, cache=None):
    options = {"model_configured": configured, "cache": cache}
    if mode is not None:
        options["type_contracts"] = mode
    return options


def run(source, mode="all", filename="/project/main.py"):
    """Runs `source` prepared as the entry program; the namespace it leaves."""
    code = prepare.entry_code(_Server(), _options(mode), textwrap.dedent(source), filename, lambda text: None)
    namespace = {"__name__": "__main__"}
    exec(code, namespace)
    return namespace


class Sites(unittest.TestCase):
    def assertViolation(self, source, message, line=None):
        try:
            run(source)
        except TypeContractError as error:  # not assertRaises: it drops the traceback
            caught = error
        else:
            self.fail(f"no TypeContractError: {message}")
        self.assertEqual(str(caught), message)
        last = traceback.extract_tb(caught.__traceback__)[-1]
        self.assertEqual(last.filename, "/project/main.py", "the traceback ends in the program, no frame of the bridge")
        if line is not None:
            self.assertEqual(last.lineno, line)

    def test_an_annotated_assignment_is_checked_before_the_name_is_bound(self):
        self.assertEqual(run("x: int = 3\n")["x"], 3)
        self.assertViolation("x: int = 3\ny: int = 'three'\n", "y: expected int, got str 'three'", line=2)
        with self.assertRaises(TypeContractError):
            namespace = {}
            exec(prepare.entry_code(_Server(), _options("all"), "y: int = 'three'\n", "/p/m.py", lambda t: None), namespace)
        self.assertNotIn("y", namespace)

    def test_attribute_and_subscript_targets_are_checked(self):
        self.assertViolation("""\
            class A:
                def __init__(self):
                    self.count: int = 'many'
            A()
        """, "self.count: expected int, got str 'many'", line=3)
        self.assertViolation("table = {}\ntable['k']: list[int] = [1, 'b']\n", "table['k'][1]: expected int, got str 'b'", line=2)

    def test_parameters_are_checked_at_the_call_on_their_own_line(self):
        source = """\
            def scale(n: int,
                      factor: float = 2.0) -> float:
                '''Scales.'''
                return n * factor
            scale(2, 3)
        """
        self.assertViolation(source, "scale() argument factor: expected float, got int 3", line=2)
        self.assertEqual(run(source.replace("scale(2, 3)", "doc = scale.__doc__; v = scale(2)"))["doc"], "Scales.")

    def test_star_parameters_hold_each_item_to_the_annotation(self):
        source = "def f(*args: int, **kw: str):\n    return args, kw\nf(1, 2, a='x')\n"
        run(source)
        self.assertViolation(source.replace("f(1, 2, a='x')", "f(1, 'b')"), "f() argument args[1]: expected int, got str 'b'", line=1)
        self.assertViolation(source.replace("f(1, 2, a='x')", "f(a=1)"), "f() argument kw['a']: expected str, got int 1", line=1)

    def test_returns_explicit_bare_and_off_the_end(self):
        self.assertViolation("def f() -> int:\n    return 'x'\nf()\n", "f() return value: expected int, got str 'x'", line=2)
        self.assertViolation("def f() -> int:\n    return\nf()\n", "f() return value: expected int, got None", line=2)
        self.assertViolation("def f() -> int:\n    pass\nf()\n", "f() return value: expected int, got None", line=1)
        run("def f() -> None:\n    pass\nf()\n")

    def test_methods_are_named_by_their_class(self):
        self.assertViolation("""\
            class Account:
                def deposit(self, amount: int) -> None:
                    pass
            Account().deposit(1.5)
        """, "Account.deposit() argument amount: expected int, got float 1.5", line=2)

    def test_primitives_are_strict_as_for_ai_results(self):
        self.assertViolation("x: float = 1\n", "x: expected float, got int 1")
        self.assertViolation("x: int = True\n", "x: expected int, got bool True")
        self.assertViolation("x: int = '1'\n", "x: expected int, got str '1'")

    def test_generic_forms(self):
        run("""\
            from dataclasses import dataclass
            from enum import Enum
            from typing import Any, Literal, Optional, TypedDict, Union
            class Point(TypedDict):
                x: int
            @dataclass
            class Item:
                name: str
            class Color(Enum):
                RED = 1
            a: list[int] = [1, 2]
            b: dict[str, Item] = {"k": Item("n")}
            c: Optional[str] = None
            d: Union[int, str] = "s"
            e: int | None = 3
            f: Point = {"x": 1}
            g: Literal["a", "b"] = "a"
            h: Any = object()
            i: Color = Color.RED
            j: tuple[int, str] = (1, "a")
        """)
        self.assertViolation("from typing import Literal\nk: Literal['a'] = 'z'\n", "k: expected Literal['a'], got str 'z'")
        self.assertViolation("from typing import TypedDict\nclass P(TypedDict):\n    x: int\np: P = {'y': 1}\n",
                             "p: expected P, got dict missing required key 'x'")

    def test_string_annotations_future_annotations_and_forward_references(self):
        source = """\
            from __future__ import annotations
            def make(n: int) -> Later:
                return Later() if n else 'no'
            class Later:
                pass
            make(1)
            x: "list[Later]" = [Later()]
            make(0)
        """
        self.assertViolation(source, "make() return value: expected Later, got str 'no'", line=3)

    def test_what_the_checker_does_not_support_is_not_checked(self):
        run("""\
            from typing import Callable, TypeVar
            T = TypeVar("T")
            def first(items: list[T]) -> T:
                return items[0]
            first(["a"])
            f: Callable[[int], int] = len
            g: "Undefined" = 3
        """)

    def test_generators_check_arguments_when_they_start_and_not_their_returns(self):
        source = textwrap.dedent("""\
            from typing import Iterator
            def count(n: int) -> Iterator[int]:
                yield n
                return 'done'
            gen = count('x')
        """)
        run(source)  # not started: nothing ran
        self.assertViolation(source + "next(gen)\n", "count() argument n: expected int, got str 'x'", line=2)

    def test_async_functions_check_the_awaited_value(self):
        self.assertViolation("""\
            import asyncio
            async def fetch(n: int) -> str:
                return n
            asyncio.run(fetch(1))
        """, "fetch() return value: expected str, got int 1", line=3)

    def test_class_bodies_and_lambdas_are_not_checked(self):
        run("""\
            from dataclasses import dataclass, field
            @dataclass
            class Config:
                tags: list[str] = field(default_factory=list)
                retries: int = "three"
            square = lambda v: v * v
            square(2)
        """)

    def test_annotations_of_local_classes_resolve_in_the_frame(self):
        self.assertViolation("""\
            def main():
                class Local:
                    pass
                x: Local = Local()
                y: Local = 3
            main()
        """, "y: expected Local, got int 3", line=5)


class FastPath(unittest.TestCase):
    """What fast.py lets through without the full check is what the full check accepts."""

    CASES = [
        (int, [1, True, 1.0, "1", None]),
        (Optional[str], [None, "a", 1, b"a"]),
        (list[int], [[1, 2], [1, True], [], [1, "a"], (1,), UserList([1])]),
        (set[str], [{"a"}, {"a", 1}, frozenset({"a"})]),
        (tuple[int, ...], [(1, 2), (1, "a"), [1]]),
        (tuple[int, str], [(1, "a"), (1, 2), (1, "a", 3), ("a", 1)]),
        (dict[str, float], [{"a": 1.0}, {"a": 1}, {1: 1.0}, {}]),
        (list[Optional[int]], [[1, None], [None, "x"]]),
    ]

    def test_a_value_the_fast_path_accepts_satisfies_the_annotation(self):
        accepted = 0
        for tp, values in self.CASES:
            exact, fast = frozenset(exact_classes(tp)), fast_check(tp)
            for value in values:
                with self.subTest(tp=tp, value=value):
                    if type(value) in exact or (fast is not None and fast(value)):
                        accepted += 1
                        check_object(value, tp)  # raises if the fast path was wrong
        self.assertGreaterEqual(accepted, 10)

    def test_what_it_rejects_gets_the_full_check_and_its_message(self):
        self.assertFalse(fast_check(list[int])([1, True]))
        namespace = run("class Flag(int):\n    pass\nx: int = Flag(1)\n")  # a subclass: the full check accepts it
        self.assertEqual(type(namespace["x"]).__name__, "Flag")


class ZeroCostWhenOff(unittest.TestCase):
    SOURCE = "def f(n: int) -> int:\n    x: int = n\n    return x\nprint(f(2))\n"

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder)

    def cache(self):
        return {"dir": os.path.join(self.folder, "cache"), "version": "test", "max_bytes": 1 << 20}

    def prepared(self, mode, configured):
        """The prepared code before binding (what the cache stores), marshalled: None when the
        source is not prepared at all (no model, no contracts: CPython compiles it)."""
        options = _options(mode, configured)
        if not configured and not prepare.contracts_on(options):
            return None
        return marshal.dumps(prepare._build(self.SOURCE, "/p/main.py", options, True, lambda t: None).code)

    def test_ai_prepares_the_same_code_under_the_same_key_as_no_setting(self):
        for configured in (False, True):
            with self.subTest(configured=configured):
                self.assertEqual(self.prepared("ai", configured), self.prepared(None, configured))
                cache = prepare.cache_for(_options(None, configured, self.cache()))
                keys = {mode: cache.key(b"x", "/p/main.py", prepare._variant(True, _options(mode, configured))) for mode in (None, "ai", "all")}
                self.assertEqual(keys[None], keys["ai"])
                self.assertNotEqual(keys["ai"], keys["all"])

    def test_all_prepares_other_code(self):
        self.assertNotEqual(self.prepared("all", True), self.prepared("ai", True))
        self.assertIsNotNone(self.prepared("all", False))


if __name__ == "__main__":
    unittest.main()
