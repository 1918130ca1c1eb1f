"""Bindings on a frame (SPEC §5.2): get_binding's lookup order and scopes, set_binding keeping
identity in locals, declared globals and the overlay, and the bytecode scan for declared globals.
Each test calls the API from inside a live function through sys._getframe(), then checks what
that function's own later code sees. Run under 3.11, 3.12 and 3.13."""

import sys
import unittest

from aiython_bridge import pycompat
from aiython_bridge.frameops import Invocation, ToolError

COUNTER = 0


class Bindings(unittest.TestCase):
    def test_lookup_order(self):
        shadow = "local"

        def outer():
            enclosed = "cell"

            def inner():
                enclosed
                inv = Invocation(sys._getframe())
                return [inv.get_binding(n)["scope"] for n in ("enclosed", "COUNTER", "len")]

            return inner()

        inv = Invocation(sys._getframe())
        self.assertEqual(inv.get_binding("shadow")["value"], "local")
        del shadow  # read by the tool through the frame only
        self.assertEqual(outer(), ["enclosing", "global", "builtin"])
        for bad, error in [("missing_name", "NameError"), ("not a name", "ValueError")]:
            with self.subTest(bad=bad), self.assertRaises(ToolError) as caught:
                inv.get_binding(bad)
            self.assertEqual(caught.exception.error_type, error)

    def test_get_binding_of_unbound_local(self):
        def program():
            inv = Invocation(sys._getframe())
            with self.assertRaises(ToolError) as caught:
                inv.get_binding("pending")
            pending = 1
            return caught.exception.error_type, pending

        self.assertEqual(program()[0], "UnboundLocalError")

    def test_set_binding_keeps_identity(self):
        def program():
            target = None
            inv = Invocation(sys._getframe())
            handle = inv.evaluate("object()")["handle"]
            chosen = inv.lookup_handle(handle)
            self.assertEqual(inv.set_binding("target", chosen), {"ok": True})
            return target, chosen

        target, chosen = program()
        self.assertIs(target, chosen)

    def test_set_binding_declared_global_and_overlay(self):
        global COUNTER
        marker = object()

        def program():
            global COUNTER
            COUNTER = 0
            inv = Invocation(sys._getframe())
            inv.set_binding("COUNTER", marker)
            inv.set_binding("brand_new", marker)
            return COUNTER, inv.get_binding("brand_new")["scope"], inv.lookup_handle(inv.get_binding("brand_new")["handle"])

        try:
            seen, scope, bound = program()
            self.assertIs(seen, marker)
            self.assertIs(COUNTER, marker)
            self.assertEqual(scope, "invocation")
            self.assertIs(bound, marker)
        finally:
            COUNTER = 0

    def test_set_binding_module_frame(self):
        marker = object()

        def hook():
            Invocation(sys._getframe(1)).set_binding("chosen", marker)

        namespace = {"hook": hook}
        exec("hook()\nresult = chosen", namespace)
        self.assertIs(namespace["result"], marker)


class DeclaredGlobals(unittest.TestCase):
    def test_bytecode_scan_with_extended_args(self):
        names = "\n".join(f"    x.a{i} = 1" for i in range(300))
        source = f"def f(x):\n    global G1, G2, READ\n{names}\n    G1 = READ\n    del G2\n"
        namespace = {}
        exec(source, namespace)
        self.assertEqual(pycompat.declared_globals(namespace["f"].__code__), frozenset({"G1", "G2"}))


if __name__ == "__main__":
    unittest.main()
