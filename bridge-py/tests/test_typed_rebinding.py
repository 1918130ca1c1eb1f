"""Typed rebinding (SPEC §6): a typed name that `execute`, `evaluate` or `set_binding` would
leave with a value of the wrong type keeps (or gets back) its previous value, and the tool error
names the name and both types. Live frames, as in the test_frameops_* files. Run under 3.11, 3.12
and 3.13."""

import sys
import textwrap
import unittest

from aiython_bridge.frameops import Invocation, ToolError

counter: int = 0
label = "untyped"


def run_module(source: str, tool):
    """Runs `source` as a module whose last statement calls `pause()`; `tool(inv)` runs there."""
    namespace = {"__name__": "typed_module_test"}
    seen = {}

    def pause():
        inv = Invocation(sys._getframe(1))
        try:
            seen["result"] = tool(inv)
        except ToolError as exc:
            seen["error"] = exc
        finally:
            inv.close()

    namespace["pause"] = pause
    exec(compile(textwrap.dedent(source), "<typed-test>", "exec"), namespace)
    return namespace, seen


class TypedRebinding(unittest.TestCase):
    def assertNamesBothTypes(self, error, name, expected, got):
        self.assertEqual(error.error_type, "TypeContractError")
        self.assertIn(f"{name}: expected {expected}, got {got}", error.message)

    def test_execute_rebinding_a_typed_local_is_undone(self):
        def program():
            x: int = 1
            inv = Invocation(sys._getframe())
            with self.assertRaises(ToolError) as caught:
                inv.execute("x = 'oops'")
            inv.close()
            return x, caught.exception

        value, error = program()
        self.assertEqual(value, 1)
        self.assertNamesBothTypes(error, "x", "int", "str 'oops'")
        self.assertIn("x was given back its previous value", error.message)

    def test_an_annotated_parameter_is_typed_and_right_types_pass(self):
        def program(limit: int, names: list[str]):
            inv = Invocation(sys._getframe())
            inv.execute("limit = limit + 1; names = names + ['c']")
            with self.assertRaises(ToolError) as caught:
                inv.execute("names = ['d', 4]")
            inv.close()
            return limit, names, caught.exception

        limit, names, error = program(1, ["a"])
        self.assertEqual((limit, names), (2, ["a", "c"]))
        self.assertNamesBothTypes(error, "names[1]", "str", "int 4")

    def test_untyped_names_and_other_types_are_free(self):
        def program():
            y = 1
            inv = Invocation(sys._getframe())
            inv.execute("y = 'text'")
            inv.close()
            return y

        self.assertEqual(program(), "text")

    def test_evaluate_with_a_walrus_is_checked_too(self):
        def program():
            ratio: float = 0.5
            inv = Invocation(sys._getframe())
            with self.assertRaises(ToolError) as caught:
                inv.evaluate("(ratio := 2)")
            inv.close()
            return ratio, caught.exception

        ratio, error = program()
        self.assertEqual(ratio, 0.5)
        self.assertNamesBothTypes(error, "ratio", "float", "int 2")

    def test_set_binding_of_a_wrong_type_binds_nothing(self):
        def program():
            x: int = 1
            inv = Invocation(sys._getframe())
            handle = inv.evaluate("'oops'")["handle"]
            with self.assertRaises(ToolError) as caught:
                inv.set_binding("x", inv.lookup_handle(handle))
            inv.set_binding("x", inv.lookup_handle(inv.evaluate("7")["handle"]))
            inv.close()
            return x, caught.exception

        value, error = program()
        self.assertEqual(value, 7)
        self.assertNamesBothTypes(error, "x", "int", "str 'oops'")
        self.assertIn("x keeps its value", error.message)

    def test_module_annotations_type_module_names_and_declared_globals(self):
        namespace, seen = run_module("""
            total: int = 3
            tag: 'str' = "a"
            pause()
        """, lambda inv: inv.execute("total = 'many'; tag = 'b'"))
        self.assertEqual(namespace["total"], 3)
        self.assertEqual(namespace["tag"], "b")  # only the violating name is undone
        self.assertNamesBothTypes(seen["error"], "total", "int", "str 'many'")

        def bump():
            global counter
            if counter < 0:
                counter = 0  # assigned in this function, so execute's `counter = ...` reaches the module
            inv = Invocation(sys._getframe())
            try:
                inv.execute("counter = None")
            except ToolError as exc:
                return exc
            finally:
                inv.close()

        error = bump()
        self.assertEqual(counter, 0)
        self.assertNamesBothTypes(error, "counter", "int", "None")

    def test_a_name_unbound_before_is_unbound_again_in_a_module(self):
        namespace, seen = run_module("""
            later: int
            pause()
        """, lambda inv: inv.execute("later = 'x'"))
        self.assertNotIn("later", namespace)
        self.assertIn("later was unbound again", seen["error"].message)

    def test_the_code_raising_after_the_rebinding_still_restores(self):
        def program():
            x: int = 1
            inv = Invocation(sys._getframe())
            with self.assertRaises(ToolError) as caught:
                inv.execute("x = 'oops'\nraise KeyError('k')")
            inv.close()
            return x, caught.exception

        value, error = program()
        self.assertEqual(value, 1)
        self.assertIn("the code also raised KeyError", error.message)

    def test_a_change_in_place_is_reported_and_held_until_put_right(self):
        def program():
            xs: list[int] = [1]
            inv = Invocation(sys._getframe())
            with self.assertRaises(ToolError) as changed:
                inv.execute("xs.append('two')")
            with self.assertRaises(ToolError) as ending:
                inv.check_typed_names_before_end()
            inv.execute("xs[-1] = 2")
            inv.check_typed_names_before_end()  # put right: the block may end
            inv.close()
            return xs, changed.exception, ending.exception

        value, changed, ending = program()
        self.assertEqual(value, [1, 2])
        self.assertNamesBothTypes(changed, "xs[1]", "int", "str 'two'")
        self.assertIn("xs was changed in place, which cannot be undone", changed.message)
        self.assertIn("typed names still hold values of the wrong type", ending.message)

    def test_a_value_wrong_before_the_op_is_not_the_ops_doing(self):
        def program():
            xs: list[int] = [1, "already"]  # the program's own doing: Python does not check it
            inv = Invocation(sys._getframe())
            result = inv.execute("xs.append(3)")
            inv.check_typed_names_before_end()
            inv.close()
            return result, xs

        self.assertEqual(program(), ({"ok": True}, [1, "already", 3]))

    def test_deleting_a_typed_module_name_is_undone(self):
        namespace, seen = run_module("""
            total: int = 3
            pause()
        """, lambda inv: inv.execute("del total"))
        self.assertEqual(namespace["total"], 3)
        self.assertIn("total: expected int, but the code deleted it; total was given back its previous value", seen["error"].message)

    def test_a_global_the_function_only_reads_is_reached_as_python_would(self):
        import linecache

        source = textwrap.dedent("""
            seen = 0
            def read_only():
                global seen
                print(end=str(seen)[:0])
                pause()
            read_only()
        """)
        linecache.cache["<typed-test>"] = (len(source), None, source.splitlines(True), "<typed-test>")
        try:
            namespace, seen = run_module(source, lambda inv: inv.execute("seen = 5"))
        finally:
            linecache.cache.pop("<typed-test>", None)
        self.assertEqual(seen, {"result": {"ok": True}})
        self.assertEqual(namespace["seen"], 5)


if __name__ == "__main__":
    unittest.main()
