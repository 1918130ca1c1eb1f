"""The execute frame operation (SPEC §5.2): assignments reaching the running function, its cells,
enclosing scopes and module globals, the invocation overlay, generator, module and class frames.
Each test calls the API from inside a live function through sys._getframe(), then checks what
that function's own later code sees. Run under 3.11, 3.12 and 3.13."""

import sys
import threading
import unittest

from aiython_bridge import pycompat
from aiython_bridge.frameops import Invocation, ToolError

COUNTER = 0
READ_ONLY_GLOBAL = "module value"


def exec_in_caller(code: str) -> dict:
    """What the runner does for one `execute` tool call on the paused frame (our caller)."""
    inv = Invocation(sys._getframe(1))
    try:
        return inv.execute(code)
    finally:
        inv.close()


class Execute(unittest.TestCase):
    def test_runs_on_another_threads_frame_owner(self):
        results = []

        def worker():
            local_value = 1
            exec_in_caller("local_value = 'set by tool'")
            results.append(local_value)

        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        self.assertEqual(results, ["set by tool"])

    def test_assignment_reaches_the_running_function(self):
        def program():
            total = 1
            exec_in_caller("total = total + 41")
            return total

        self.assertEqual(program(), 42)

    def test_several_locals_and_comprehension(self):
        def program():
            prices = [3, 4]
            rate = 2
            total = None
            label = "old"
            exec_in_caller("total = sum(p * rate for p in prices)\nlabel = f'{total} units'")
            del prices, rate  # read by the tool through the frame only
            return total, label

        self.assertEqual(program(), (14, "14 units"))

    def test_cell_variable_shared_with_a_closure(self):
        def program():
            count = 0

            def read():
                return count

            exec_in_caller("count = 5")
            return count, read()

        self.assertEqual(program(), (5, 5))

    def test_nonlocal_name_reaches_the_enclosing_cell(self):
        def program():
            n = 1

            def inner():
                nonlocal n
                exec_in_caller("n = n * 10")
                return n

            return inner(), n

        self.assertEqual(program(), (10, 10))

    def test_declared_global_reaches_module_globals(self):
        global COUNTER

        def program():
            global COUNTER
            COUNTER = 1
            exec_in_caller("COUNTER = COUNTER + 98")
            return COUNTER

        try:
            self.assertEqual(program(), 99)
            self.assertEqual(COUNTER, 99)
        finally:
            COUNTER = 0

    def test_global_statement_in_the_code_is_honoured(self):
        def program():
            exec_in_caller("global SET_BY_TOOL\nSET_BY_TOOL = 'yes'")

        try:
            program()
            self.assertEqual(globals()["SET_BY_TOOL"], "yes")
        finally:
            globals().pop("SET_BY_TOOL", None)

    def test_new_names_live_in_the_invocation_overlay(self):
        def program():
            base = 2
            inv = Invocation(sys._getframe())
            inv.execute("fresh = [base, base * 2]\nscale = lambda v: v * base")
            seen = inv.evaluate("len(fresh) + scale(10)")["value"]
            scope = inv.get_binding("fresh")["scope"]
            in_frame = "fresh" in sys._getframe().f_code.co_varnames
            fresh_again = Invocation(sys._getframe())
            try:
                fresh_again.evaluate("fresh")
                other = "visible"
            except ToolError as exc:
                other = exc.error_type
            del base  # read by the tool through the frame only
            return seen, scope, in_frame, other

        self.assertEqual(program(), (22, "invocation", False, "NameError"))

    def test_read_only_global_rebound_stays_in_the_overlay(self):
        def program():
            before = READ_ONLY_GLOBAL
            inv = Invocation(sys._getframe())
            inv.execute("READ_ONLY_GLOBAL = 'tool value'")
            return before, inv.evaluate("READ_ONLY_GLOBAL")["value"], READ_ONLY_GLOBAL

        self.assertEqual(program(), ("module value", "tool value", "module value"))

    def test_effects_before_an_exception_stay(self):
        def program():
            a = 1
            with self.assertRaises(ToolError) as caught:
                exec_in_caller("a = 5\nraise KeyError('k')")
            return a, caught.exception.error_type

        self.assertEqual(program(), (5, "KeyError"))

    def test_del_of_a_local(self):
        def program():
            x = 1
            y = 1
            try:
                exec_in_caller("y = 2\ndel x")
                outcome = "deleted"
            except ToolError as exc:
                outcome = exc.error_type
            try:
                return outcome, x, y
            except UnboundLocalError:
                return outcome, "unbound", y

        if pycompat.CAN_UNBIND_FAST_LOCALS:
            self.assertEqual(program(), ("deleted", "unbound", 2))
        else:  # refused before the code ran: y untouched as well
            self.assertEqual(program(), ("UnsupportedOperation", 1, 1))

    def test_private_names_mangle_as_in_the_method(self):
        class Account:
            def __init__(self):
                self.__balance = 10

            def method(self):
                __note = "n"
                inv = Invocation(sys._getframe())
                seen = inv.evaluate("self.__balance + len(__note)")["value"]
                inv.execute("__note = 'changed'\nself.__balance = len(type(self).__name__) * 0 + 99")
                return seen, __note, self.__balance

        self.assertEqual(Account().method(), (11, "changed", 99))

    def test_generator_frame(self):
        def gen():
            step = 1
            yield step
            yield step

        g = gen()
        self.assertEqual(next(g), 1)
        inv = Invocation(g.gi_frame)
        inv.execute("step = 7")
        self.assertEqual(next(g), 7)

    def test_module_level_frame(self):
        namespace = {"__name__": "prog", "hook": exec_in_caller}
        exec(compile("base = 4\nhook('doubled = [base * k for k in range(3)]')\nafter = doubled\n",
                     "<prog>", "exec"), namespace)
        self.assertEqual(namespace["after"], [0, 4, 8])

    def test_class_body_frame(self):
        class Config:
            size = 3
            exec_in_caller("double = size * 2")

        self.assertEqual(Config.double, 6)

    def test_unassigned_local_reads_as_unbound(self):
        def program():
            inv = Invocation(sys._getframe())
            try:
                inv.evaluate("later")
            except ToolError as exc:
                error = exc.error_type
            later = 1
            return error, later

        self.assertEqual(program()[0], "NameError")


if __name__ == "__main__":
    unittest.main()
