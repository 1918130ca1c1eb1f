"""Frame operations (SPEC §5.2) against real running frames: each test calls the API from
inside a live function through sys._getframe(), then checks what that function's own later
code sees. Run under 3.11, 3.12 and 3.13."""

import json
import os
import sys
import tempfile
import textwrap
import threading
import unittest

from aiython_bridge import pycompat
from aiython_bridge.frameops import Invocation, ToolError, code_context

COUNTER = 0
READ_ONLY_GLOBAL = "module value"


def exec_in_caller(code: str) -> dict:
    """What the runner does for one `execute` tool call on the paused frame (our caller)."""
    inv = Invocation(sys._getframe(1))
    try:
        return inv.execute(code)
    finally:
        inv.close()


def raising_helper():
    raise LookupError("from program code")


class Evaluate(unittest.TestCase):
    def test_descriptors_carry_values_of_primitives(self):
        text = "hello"
        ratio = 0.25
        big = 2**70
        huge = 10**400
        flag = True
        nothing = None
        long_text = "z" * 5000
        inv = Invocation(sys._getframe())
        self.assertEqual(inv.evaluate("text + '!'"), {"handle": "object-1", "type": "str", "module": "builtins",
                                                      "qualname": "str", "value": "hello!"})
        self.assertEqual(inv.evaluate("ratio * 2")["value"], 0.5)
        self.assertIs(inv.evaluate("flag")["value"], True)
        self.assertIn("value", inv.evaluate("nothing"))
        self.assertIsNone(inv.evaluate("nothing")["value"])
        self.assertEqual(inv.evaluate("2**53 - 1")["value"], 2**53 - 1)
        wide = inv.evaluate("big")
        self.assertNotIn("value", wide)
        self.assertEqual(wide["text"], str(2**70))
        self.assertEqual(inv.evaluate("huge")["bits"], huge.bit_length())
        self.assertEqual(inv.evaluate("float('nan')")["text"], "nan")
        self.assertNotIn("value", inv.evaluate("float('inf')"))
        described = inv.evaluate("long_text")
        self.assertNotIn("value", described)
        self.assertEqual(described["length"], 5000)
        self.assertEqual(inv.evaluate("'y' * 4000")["value"], "y" * 4000)

    def test_handles_are_stable_by_identity(self):
        items = [1, 2]
        inv = Invocation(sys._getframe())
        first = inv.evaluate("items")["handle"]
        self.assertEqual(inv.evaluate("items")["handle"], first)
        self.assertEqual(inv.get_binding("items")["handle"], first)
        copy = inv.evaluate("items[:]")["handle"]
        self.assertNotEqual(copy, first)
        self.assertIs(inv.lookup_handle(first), items)
        self.assertEqual(inv.descriptor(items)["handle"], first)

    def test_unknown_handle_is_a_tool_error(self):
        inv = Invocation(sys._getframe())
        inv.evaluate("1")
        with self.assertRaises(ToolError) as caught:
            inv.lookup_handle("object-99")
        self.assertEqual(caught.exception.error_type, "UnknownHandle")
        self.assertIn("object-1", caught.exception.message)
        with self.assertRaises(ToolError):
            inv.inspect("object-0")

    def test_result_ids_are_remembered(self):
        payload = {"k": 1}
        inv = Invocation(sys._getframe())
        inv.evaluate("payload", result_id="p")
        inv.get_binding("payload", result_id="q")
        self.assertIs(inv.recall("p"), payload)
        self.assertIs(inv.recall("q"), payload)
        with self.assertRaises(ToolError) as caught:
            inv.recall("nope")
        self.assertEqual(caught.exception.error_type, "UnknownResult")

    def test_comprehensions_and_lambdas_see_frame_locals(self):
        factor = 3
        items = [1, 2, 3]
        inv = Invocation(sys._getframe())
        self.assertEqual(inv.evaluate("sum(v * factor for v in items)")["value"], 18)
        self.assertEqual(inv.evaluate("len([v for v in items if v * factor > 3])")["value"], 2)
        self.assertEqual(inv.evaluate("(lambda v: v * factor)(5)")["value"], 15)
        self.assertEqual(factor, 3)

    def test_walrus_in_evaluate_binds_the_frame_local(self):
        seen = 0
        inv = Invocation(sys._getframe())
        inv.evaluate("(seen := 41) + 1")
        self.assertEqual(seen, 41)

    def test_program_exception_becomes_tool_error(self):
        inv = Invocation(sys._getframe())
        with self.assertRaises(ToolError) as caught:
            inv.evaluate("1 / 0")
        self.assertEqual((caught.exception.error_type, caught.exception.message), ("ZeroDivisionError", "division by zero"))
        with self.assertRaises(ToolError) as caught:
            inv.evaluate("raising_helper()")
        self.assertEqual((caught.exception.error_type, caught.exception.message), ("LookupError", "from program code"))
        with self.assertRaises(ToolError) as caught:
            inv.evaluate("undefined_name_here")
        self.assertEqual(caught.exception.error_type, "NameError")
        with self.assertRaises(ToolError) as caught:
            inv.execute("raise ValueError('x' * 5000)")
        self.assertEqual(len(caught.exception.message), 2000)

    def test_exception_whose_str_fails(self):
        class Odd(Exception):
            def __str__(self):
                raise RuntimeError("no")

        inv = Invocation(sys._getframe())
        with self.assertRaises(ToolError) as caught:
            inv.execute("raise Odd()")
        self.assertEqual(caught.exception.error_type, "Odd")
        self.assertIn("str()", caught.exception.message)

    def test_syntax_errors(self):
        inv = Invocation(sys._getframe())
        for mode, code, needle in [("evaluate", "1 +", "line 1"), ("evaluate", "x = 1", "line 1"),
                                   ("execute", "return 5", "'return' outside function"),
                                   ("execute", "if True:\nprint(1)", "IndentationError"),
                                   ("execute", "yield 1", "outside function"),
                                   ("execute", "from os import *", "import *")]:
            with self.subTest(code=code), self.assertRaises(ToolError) as caught:
                getattr(inv, mode)(code)
            self.assertEqual(caught.exception.error_type, "SyntaxError")
            self.assertIn(needle, caught.exception.message)

    def test_system_exit_does_not_end_the_program(self):
        inv = Invocation(sys._getframe())
        with self.assertRaises(ToolError) as caught:
            inv.execute("import sys; sys.exit(3)")
        self.assertEqual(caught.exception.error_type, "SystemExit")

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


class Execute(unittest.TestCase):
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


class JsonResults(unittest.TestCase):
    def test_every_result_is_strict_json(self):
        messy = {1: float("nan"), (2, 3): [float("inf"), b"\x00", 2**80, {None: {"deep": -0.0}}],
                 "s": "x" * 9000, frozenset({1}): {3, 4}}
        weird_number = float("-inf")
        inv = Invocation(sys._getframe())
        handle = inv.get_binding("messy")["handle"]
        results = [inv.inspect(handle, depth=3, limit=100), inv.evaluate("weird_number"),
                   inv.related_objects("messy weird_number"), inv.frame_objects(), inv.frames(),
                   inv.code_context(), inv.get_frame_code()]
        for result in results:
            json.dumps(result, allow_nan=False)
        self.assertEqual(results[1]["text"], "-inf")


class InspectTool(unittest.TestCase):
    def test_inspect_through_handle(self):
        data = {"a": [1, 2, 3], "b": "text"}
        inv = Invocation(sys._getframe())
        handle = inv.get_binding("data")["handle"]
        shown = inv.inspect(handle, depth=2, limit=10)
        self.assertEqual(shown["handle"], handle)
        self.assertEqual([e["key"]["value"] for e in shown["entries"]], ["a", "b"])
        self.assertEqual([i["value"] for i in shown["entries"][0]["value"]["items"]], [1, 2, 3])
        self.assertIs(inv.lookup_handle(shown["entries"][0]["value"]["handle"]), data["a"])
        with self.assertRaises(ToolError):
            inv.inspect(handle, depth="2")


PROGRAM = '''\
import hook_module


def inner(record):
    secret = record["missing"]
    return secret


def outer():
    data = {"a": 1}
    try:
        inner(data)
    except KeyError as exc:
        return hook_module.capture(exc)


def nested_block():
    depth = 2
    return hook_module.capture(None)


def caller():
    marker = "c"
    return nested_block()
'''


class FramesAndCode(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = os.path.realpath(self.tmp.name)
        self.path = os.path.join(self.root, "prog.py")
        with open(self.path, "w") as handle:
            handle.write(PROGRAM)
        captured = {}

        class HookModule:
            origin_only = False

            @staticmethod
            def capture(exc):
                if exc is not None and HookModule.origin_only:
                    deepest = exc.__traceback__
                    while deepest.tb_next is not None:
                        deepest = deepest.tb_next
                    inv = Invocation(sys._getframe(1), origin_frame=deepest.tb_frame, line=12,
                                     project_root=self.root)
                else:
                    inv = Invocation(sys._getframe(1), traceback=exc.__traceback__ if exc else None,
                                     project_root=self.root)
                captured["inv"] = inv
                return inv.frames()

        self.namespace = {"__name__": "prog", "__file__": self.path}
        self.hook = HookModule
        sys.modules["hook_module"] = HookModule
        exec(compile(PROGRAM, self.path, "exec"), self.namespace)
        self.captured = captured

    def tearDown(self):
        sys.modules.pop("hook_module", None)
        self.captured.get("inv") and self.captured["inv"].close()
        self.tmp.cleanup()

    def test_recovery_frames_follow_the_traceback(self):
        frames = self.namespace["outer"]()["frames"]
        self.assertEqual([f["function"] for f in frames], ["outer", "inner"])
        self.assertEqual([f["file"] for f in frames], ["prog.py", "prog.py"])
        self.assertEqual(frames[1]["line"], 5)
        self.assertEqual([f["active"] for f in frames], [True, False])
        self.assertEqual([f["origin"] for f in frames], [False, True])
        names = [entry["name"] for entry in frames[1]["locals"]]
        self.assertEqual(names, ["record"])
        self.assertEqual(frames[0]["locals"][0]["name"], "data")

    def test_origin_frame_without_traceback(self):
        self.hook.origin_only = True
        frames = self.namespace["outer"]()["frames"]
        self.assertEqual([(f["function"], f["line"], f["active"], f["origin"]) for f in frames],
                         [("outer", 12, True, False), ("inner", 5, False, True)])

    def test_origin_code(self):
        self.namespace["outer"]()
        inv = self.captured["inv"]
        origin = inv.get_frame_code("origin")
        self.assertEqual((origin["start_line"], origin["end_line"], origin["line"]), (4, 6, 5))
        self.assertTrue(origin["source"].startswith("def inner(record):"))
        self.assertEqual(inv.get_frame_code("active")["start_line"], 9)
        with self.assertRaises(ToolError):
            inv.get_frame_code("elsewhere")

    def test_stack_frames_in_block_mode(self):
        frames = self.namespace["caller"]()["frames"]
        self.assertEqual([f["function"] for f in frames], ["caller", "nested_block"])
        self.assertEqual([f["active"] for f in frames], [False, True])
        with self.assertRaises(ToolError) as caught:
            self.captured["inv"].get_frame_code("origin")
        self.assertEqual(caught.exception.error_type, "ValueError")


class CodeContext(unittest.TestCase):
    def run_file(self, source: str, call: str):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        path = os.path.join(tmp.name, "ctx.py")
        with open(path, "w") as handle:
            handle.write(source)
        seen = {}

        def grab():
            frame = sys._getframe(1)
            seen["ctx"] = code_context(frame, frame.f_lineno, project_root=tmp.name)

        namespace = {"grab": grab}
        exec(compile(source, path, "exec"), namespace)
        if call:
            namespace[call]()
        return seen["ctx"]

    def test_small_function_whole(self):
        source = "x = 1\n\n@staticmethod\ndef small():\n    a = 1\n    grab()\n    return a\n\nprint\n"
        ctx = self.run_file(source, "small")
        self.assertEqual((ctx["start_line"], ctx["end_line"], ctx["line"]), (3, 7, 6))
        self.assertTrue(ctx["complete"])
        self.assertEqual(ctx["file"], "ctx.py")
        self.assertEqual(ctx["source"], "".join(source.splitlines(True)[2:7]))

    def test_large_function_windowed(self):
        body = "".join(f"    v{i} = {i}  # padding padding padding padding\n" for i in range(200))
        source = "def big():\n" + body + "    grab()\n" + body + "    return 0\n"
        ctx = self.run_file(source, "big")
        self.assertFalse(ctx["complete"])
        self.assertEqual(ctx["line"], 202)
        self.assertLessEqual(ctx["start_line"], 202)
        self.assertGreaterEqual(ctx["end_line"], 202)
        self.assertIn("grab()", ctx["source"])
        self.assertLessEqual(len(ctx["source"]), 12000)
        self.assertLess(ctx["end_line"] - ctx["start_line"], 60)

    def test_hard_cap_with_long_lines(self):
        long_line = "# " + "w" * 3000 + "\n"
        source = long_line * 30 + "grab()\n" + long_line * 30
        ctx = self.run_file(source, None)
        self.assertEqual(ctx["kind"], "module")
        self.assertLessEqual(len(ctx["source"]), 12000)
        self.assertIn("grab()", ctx["source"])

    def test_source_not_available(self):
        seen = {}

        def grab():
            frame = sys._getframe(1)
            seen["ctx"] = code_context(frame, frame.f_lineno)

        exec(compile("grab()\n", "<nowhere>", "exec"), {"grab": grab})
        self.assertEqual(seen["ctx"]["source"], "")
        self.assertEqual(seen["ctx"]["note"], "source not available")


class DeclaredGlobals(unittest.TestCase):
    def test_bytecode_scan_with_extended_args(self):
        names = "\n".join(f"    x.a{i} = 1" for i in range(300))
        source = f"def f(x):\n    global G1, G2, READ\n{names}\n    G1 = READ\n    del G2\n"
        namespace = {}
        exec(source, namespace)
        self.assertEqual(pycompat.declared_globals(namespace["f"].__code__), frozenset({"G1", "G2"}))


if __name__ == "__main__":
    unittest.main()
