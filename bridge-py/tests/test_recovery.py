"""Recovery at run time (SPEC §4.2, §5.2 `recover`): instrumented programs whose failures are put
to a fake decision source standing in for the host's model loop. The source gets the request the
host would get and calls frame operations and the terminal `recover` exactly as the host would
(tests/support.py), so every decision goes through the bridge's own pause code.
Run under 3.11, 3.12 and 3.13.
"""

import asyncio
import builtins
import os
import sys
import textwrap
import traceback
import unittest

from aiython_bridge import import_hook
from aiython_bridge.recovery import selection, sources
from tests.support import LocalDecisions
from tests.test_instrument import Program, program_traceback


def complete(value=None, kind="literal"):
    def decide(request, op):
        args = {"action": "complete"}
        if value is not None:
            args["outcome"] = {"kind": kind, "value": value} if kind == "literal" else {"kind": kind, "code": value}
        reply = op("recover", args)
        assert reply["ok"], reply
    return decide


class Decisions(unittest.TestCase):
    def test_name_error_completed_with_a_replacement_value(self):
        program = Program(self, """
            def greet():
                name = user_name
                return "hello " + name
            print(greet())
        """, complete("Ada"))
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "hello Ada\n")
        [request] = program.requests
        self.assertEqual(request["mode"], "recovery")
        self.assertEqual(request["statement"], "name = user_name")
        self.assertEqual(request["target"], "name")
        self.assertEqual(request["location"]["function"], "greet")
        self.assertEqual(request["location"]["line"], 3)
        self.assertEqual(request["recovery"], {
            "exception_type": "NameError", "message": "name 'user_name' is not defined",
            "origin": {"file": "prog.py", "line": 3}, "attempt": 1, "retry_allowed": True, "target": "name",
        })
        self.assertIn("def greet():", request["code_context"]["source"])

    def test_loop_repaired_with_execute_and_retry_on_each_iteration(self):
        def decide(request, op):
            self.assertTrue(op("execute", {"code": "item.value = item.base * 10"})["ok"])
            self.assertTrue(op("recover", {"action": "retry"})["ok"])

        program = Program(self, """
            class Item:
                def __init__(self, base):
                    self.base = base
            log = []
            def process(items):
                for item in items:
                    log.append(item.base)
                    total = item.value + 1
                    print(total)
            process([Item(1), Item(2), Item(3)])
            print(log)
        """, decide)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "11\n21\n31\n[1, 2, 3]\n")  # each append ran exactly once
        self.assertEqual([r["recovery"]["exception_type"] for r in program.requests], ["AttributeError"] * 3)
        self.assertEqual({r["statement"] for r in program.requests}, {"total = item.value + 1"})

    def test_repair_inside_a_method(self):
        def decide(request, op):
            self.assertEqual(request["location"]["function"], "Counter.tick")
            self.assertTrue(op("execute", {"code": "self.step = 5"})["ok"])
            op("recover", {"action": "retry"})

        program = Program(self, """
            class Counter:
                def __init__(self):
                    self.count = 0
                def tick(self):
                    self.count += self.step
                    return self.count
            c = Counter()
            print(c.tick(), c.tick())
        """, decide)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "5 10\n")
        self.assertEqual(len(program.requests), 1)  # the repaired attribute stays for the second call

    def test_reraise_attaches_the_explanation_as_a_note(self):
        program = Program(self, """
            def ratio(a, b):
                return a / b
            print(ratio(1, 0))
        """, lambda request, op: op("recover", {"action": "reraise", "explanation": "b is zero by design"}))
        out, error = program.run()
        self.assertIsInstance(error, ZeroDivisionError)
        self.assertEqual(len(program.requests), 1)  # the outer top-level checkpoint never asks again
        text = program_traceback(error)
        self.assertIn("return a / b", text)
        self.assertTrue(text.rstrip().endswith("ZeroDivisionError: division by zero\naiython: not recovered: b is zero by design"), text)

    def test_user_try_in_a_calling_frame_sees_the_exception_first(self):
        program = Program(self, """
            def parse(text):
                return int(text)
            try:
                value = parse("seven")
            except ValueError:
                value = -1
            def via_with():
                import contextlib
                with contextlib.suppress(KeyError):
                    lookup = {}["k"] if parse("1") else None
                return "suppressed"
            print(value, via_with())
        """)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "-1 suppressed\n")
        self.assertEqual(program.requests, [])

    def test_library_fallback_handlers_see_the_exception_first(self):
        program = Program(self, """
            from collections.abc import Mapping
            class Table(Mapping):
                def __init__(self, data):
                    self.data = data
                def __getitem__(self, key):
                    return self.data[key]
                def __iter__(self):
                    return iter(self.data)
                def __len__(self):
                    return len(self.data)
            class Proxy:
                def __getattr__(self, name):
                    return getattr(object(), name)
            class Lazy:
                @property
                def size(self):
                    return self._size
            class Letters:
                def __getitem__(self, i):
                    return "abc"[i]
            t = Table({"a": 1})
            print(t.get("b", "default"), "b" in t, hasattr(Proxy(), "nope"), hasattr(Lazy(), "size"), list(Letters()))
        """)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "default False False False ['a', 'b', 'c']\n")
        self.assertEqual(program.requests, [])

    def test_failing_generator_in_a_for_loop_refuses_retry_and_accepts_complete(self):
        replies = []

        def decide(request, op):
            replies.append(op("recover", {"action": "retry"}))
            replies.append(op("recover", {"action": "complete"}))

        program = Program(self, """
            def gen():
                yield 1
                raise ValueError("generator broke")
            for x in gen():
                print("got", x)
            print("after the loop")
        """, decide)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "got 1\nafter the loop\n")
        [request] = program.requests
        self.assertFalse(request["recovery"]["retry_allowed"])
        self.assertEqual(request["recovery"]["origin"], {"file": "prog.py", "line": 4})
        self.assertEqual(replies[0]["ok"], False)
        self.assertEqual(replies[0]["error"]["type"], "RetryNotAllowed")
        self.assertTrue(replies[1]["ok"])

    def test_retry_refused_when_the_traceback_passes_through_another_project_function(self):
        def decide(request, op):
            if request["recovery"]["retry_allowed"]:
                op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": []}})
                return
            self.assertEqual(op("recover", {"action": "retry"})["error"]["type"], "RetryNotAllowed")
            op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": 0}})

        program = Program(self, """
            calls = []
            def charge():
                calls.append("charged")
                raise RuntimeError("card declined")
            def checkout():
                receipt = charge()
                squares = [n * n for n in range(3) if n < 1 / n]
                return receipt
            print(checkout(), calls)
        """, decide)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "0 ['charged']\n")
        self.assertEqual([r["statement"] for r in program.requests],
                         ["receipt = charge()", "squares = [n * n for n in range(3) if n < 1 / n]"])
        # The comprehension's own frame (3.11) is part of its statement: retry stays allowed there.
        self.assertEqual([r["recovery"]["retry_allowed"] for r in program.requests], [False, True])

    def test_two_consultations_at_most_then_the_original_exception(self):
        program = Program(self, """
            attempts = []
            def bump():
                attempts.append(len(attempts) + 1)
                return len(attempts)
            data = {}
            def read():
                value = data[bump()]
                return value
            read()
        """, lambda request, op: op("recover", {"action": "retry"}))
        out, error = program.run()
        self.assertEqual([r["recovery"]["attempt"] for r in program.requests], [1, 2])
        self.assertIsInstance(error, KeyError)
        self.assertEqual(error.args, (1,))  # the first failure, not the last retry's KeyError(3)
        self.assertEqual(program.namespace["attempts"], [1, 2, 3])
        self.assertEqual(error.__notes__, ["aiython: not recovered: the statement failed again after 2 "
                                           "consultations (KeyError: 3)"])
        self.assertIn("value = data[bump()]", program_traceback(error))

    def test_system_exit_keyboard_interrupt_and_aiython_errors_are_never_recovered(self):
        cases = {
            "import sys\nsys.exit(3)\n": SystemExit,
            "def f():\n    raise KeyboardInterrupt\nx = f()\n": KeyboardInterrupt,
            "from aiython_bridge.errors import AIError\ndef f():\n    raise AIError('model down')\nx = f()\n": Exception,
            "import concurrent.futures as cf\nf = cf.Future()\nf.cancel()\nf.result()\n": Exception,
            "from aiython_bridge.errors import AIError\ndef f():\n    raise ExceptionGroup('g', [ValueError(), AIError('x')])\nf()\n": ExceptionGroup,
            "def f():\n    raise BaseExceptionGroup('g', [ValueError(), KeyboardInterrupt()])\nf()\n": BaseExceptionGroup,
        }
        for source, kind in cases.items():
            with self.subTest(source):
                program = Program(self, source)
                _, error = program.run()
                self.assertIsInstance(error, kind)
                self.assertEqual(program.requests, [])
                self.assertFalse(hasattr(error, "__notes__"))

    def test_an_exception_group_of_eligible_members_is_recovered(self):
        program = Program(self, """
            def f():
                raise ExceptionGroup("two", [ValueError("a"), KeyError("b")])
            result = f()
            print(result)
        """, complete(7))
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "7\n")
        self.assertEqual(program.requests[0]["recovery"]["exception_type"], "ExceptionGroup")

    def test_a_finally_block_runs_before_recovery(self):
        def decide(request, op):
            print("decide")
            op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": 7}})

        program = Program(self, """
            def work():
                try:
                    print("body")
                    return missing_name
                finally:
                    print("cleanup")
            value = work()
            print("value", value)
        """, decide)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "body\ncleanup\ndecide\nvalue 7\n")

    def test_a_value_violating_the_annotation_is_refused_then_repaired(self):
        replies = []

        def decide(request, op):
            self.assertEqual(request["output_type"], "int")
            self.assertEqual(request["output_schema"], {"type": "integer"})
            replies.append(op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": "three"}}))
            replies.append(op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": 3.0}}))
            replies.append(op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": 3}}))

        program = Program(self, """
            def count_items():
                count: int = undefined_count
                return count * 2
            print(count_items())
        """, decide)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "6\n")
        self.assertEqual([r["ok"] for r in replies], [False, False, True])
        self.assertEqual(replies[0]["error"], {"type": "TypeContractError", "message": "count: expected int, got str 'three'"})
        self.assertEqual(replies[1]["error"]["type"], "TypeContractError")

    def test_a_float_literal_stays_a_float_through_raw_arguments(self):
        program = Program(self, """
            ratio: float = missing
            print(repr(ratio))
        """, complete(3.0))
        out, _ = program.run()
        self.assertEqual(out, "3.0\n")

    def test_complete_without_outcome_continues_and_a_return_returns_none(self):
        program = Program(self, """
            def first(items):
                return items[0]
            log = [1]
            log.append(log[5])
            log.append(2)
            print(first([]), log)
        """, complete())
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "None [1, 2]\n")

    def test_outcome_refused_for_a_statement_that_assigns_no_single_name(self):
        replies = []

        def decide(request, op):
            self.assertIsNone(request["recovery"]["target"])
            replies.append(op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": 1}}))
            op("recover", {"action": "complete"})

        program = Program(self, "a = b = missing\nprint('went on')\n", decide)
        out, _ = program.run()
        self.assertEqual(out, "went on\n")
        self.assertIn("does not assign one name", replies[0]["error"]["message"])

    def test_failed_invocation_lets_the_original_exception_propagate_untouched(self):
        program = Program(self, "x = {}['key']\n",
                          lambda request, op: op("fail", {"reason": "the model server is down"}))
        _, error = program.run()
        self.assertIsInstance(error, KeyError)
        self.assertFalse(hasattr(error, "__notes__"))

    def test_a_fault_in_the_decision_source_keeps_the_program_exception(self):
        def broken(request, op):
            raise RuntimeError("decision source crashed")

        program = Program(self, "x = {}['key']\n", broken)
        _, error = program.run()
        self.assertIsInstance(error, KeyError)
        self.assertIn("internal error in the bridge (RuntimeError: decision source crashed)", error.__notes__[0])

    def test_expression_outcomes_and_frame_tools_see_the_failing_frame(self):
        def decide(request, op):
            frames = op("frames")["value"]["frames"]
            self.assertEqual([frames[0]["function"], frames[-1]["function"]], ["total", "price_of"])
            self.assertEqual([frames[0]["active"], frames[-1]["origin"]], [True, True])
            origin = op("get_frame_code", {"frame": "origin"})["value"]
            self.assertIn('raise LookupError("no price for " + name)', origin["source"])
            self.assertIn("origin_context", request["recovery"])
            op("recover", {"action": "complete", "outcome": {"kind": "expression", "code": "len(items) * 100"}})

        program = Program(self, """
            def price_of(name):
                raise LookupError("no price for " + name)
            def total(items):
                cost = sum(price_of(i) for i in items)
                return cost
            print(total(["a", "b"]))
        """, decide)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "200\n")
        self.assertEqual(program.requests[0]["recovery"]["origin"], {"file": "prog.py", "line": 3})

    def test_an_exception_thrown_into_a_generator_is_not_the_yield_statement_failing(self):
        program = Program(self, """
            import contextlib
            @contextlib.contextmanager
            def tag():
                print("enter")
                yield "t"
                print("exit")
            with tag():
                value = 1 / 0
            print("after")
        """, complete())
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "enter\nafter\n")  # the context manager's generator never resumed
        self.assertEqual([r["statement"].splitlines()[0] for r in program.requests], ["with tag():"])

    def test_a_generator_closed_while_suspended_in_a_retry_leaves_nothing_open(self):
        def decide(request, op):
            op("execute", {"code": "data['key'] = 'fixed'"})
            op("recover", {"action": "retry"})

        program = Program(self, """
            data = {}
            def stream():
                received = yield data["key"]
                print("never", received)
            g = stream()
            print(next(g))
            g.close()
            print("closed")
        """, decide)
        out, error = program.run()  # the harness checks that no failure state is left open
        self.assertIsNone(error)
        self.assertEqual(out, "fixed\nclosed\n")
        self.assertEqual(len(program.requests), 1)

    def test_runaway_recursion_propagates_untouched_and_unchained(self):
        program = Program(self, """
            def down(n):
                value = down(n + 1)
                return value
            down(0)
        """, lambda request, op: op("recover", {"action": "reraise", "explanation": "unbounded recursion"}))
        _, error = program.run()
        self.assertIsInstance(error, RecursionError)
        self.assertFalse(hasattr(error, "__notes__"))
        self.assertIsNone(error.__context__, "no handler ran into the recursion limit on the way out")
        self.assertEqual(program.requests, [])

    def test_threads_are_recovered_on_their_own_thread(self):
        program = Program(self, """
            import threading
            results = {}
            def work(n):
                results[n] = n * scale
            threads = [threading.Thread(target=work, args=(i,)) for i in (1, 2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            print(sorted(results.items()))
        """, lambda request, op: op("recover", {"action": "complete"}) if op(
            "execute", {"code": "results[n] = n * 100"})["ok"] else None)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "[(1, 100), (2, 200)]\n")
        self.assertEqual(len(program.requests), 2)

    def test_coroutines_are_recovered_without_blocking_their_loop(self):
        program = Program(self, """
            import asyncio
            async def other(log):
                for _ in range(3):
                    log.append("other ran")
                    await asyncio.sleep(0)
            async def fetch():
                data = await asyncio.sleep(0, result=None)
                size = data["size"]
                return size
            async def main():
                log = []
                size, _ = await asyncio.gather(fetch(), other(log))
                print(size, len(log))
            asyncio.run(main())
        """, complete(42))
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "42 3\n")
        self.assertEqual(program.requests[0]["statement"], 'size = data["size"]')


class FakeServer:
    """What ProjectModules needs of the server: request() answered from a table of plans."""

    def __init__(self, plans):
        self.plans = plans
        self.pid = os.getpid()
        self.exiting = False
        self.pause_router = None
        self.sent = []

    def request(self, message):
        self.sent.append(message)
        plan = self.plans(message) if callable(self.plans) else self.plans
        return {"type": "result", "id": "b1", "ok": True, "value": plan}


class ProjectModules(unittest.TestCase):
    def setUp(self):
        self.program = Program(self, "")
        self.root = self.program.root
        with open(os.path.join(self.root, "helper.py"), "w") as f:
            f.write(textwrap.dedent("""\
                loaded = missing_at_import if False else "loaded"
                def scale(x):
                    factor = configured_factor
                    return x * factor
            """))
        sys.path.insert(0, self.root)
        self.addCleanup(sys.path.remove, self.root)
        self.addCleanup(sys.modules.pop, "helper", None)
        saved = list(sys.path_hooks)
        self.addCleanup(sys.path_hooks.__setitem__, slice(None), saved)
        self.addCleanup(sys.path_importer_cache.pop, self.root, None)
        # The finder builds its runtime through sources.runtime_for: give it the test's one.
        self.addCleanup(setattr, sources, "_runtime", sources._runtime)
        sources._runtime = self.program.runtime

    def plan_for(self, message):
        import ast

        tree = ast.parse(message["source"])
        return {"rewritten": None, "runtimeName": "_rt", "blocks": [], "diagnostics": [],
                "checkpoints": selection.select_checkpoints(tree, message["source"], entry=True)}

    def install(self, plans, model_configured=True):
        server = FakeServer(plans)
        import_hook.install(server, {"project_root": self.root, "model_configured": model_configured})
        return server

    def write_helper(self, source):
        with open(os.path.join(self.root, "helper.py"), "w") as f:
            f.write(textwrap.dedent(source))

    def test_a_project_module_that_parses_gets_its_nested_checkpoints_without_the_host(self):
        server = self.install(self.plan_for)
        self.program.runtime.decisions = LocalDecisions(complete(3))
        import helper

        # Called from this test method, which the runtime must take for the program's top.
        self.program.runtime.callers.top_codes.add(sys._getframe().f_code)
        self.assertEqual(helper.scale(2), 6)
        self.assertEqual(helper.loaded, "loaded")
        self.assertEqual(server.sent, [], "the bridge selected the checkpoints itself")
        self.assertEqual(type(helper.__spec__.loader).__name__, "ProjectLoader")
        # Top-level statements of an imported module are never checkpoints.
        ids = [c.id for c in self.program.runtime.checkpoints() if c.filename.endswith("helper.py")]
        self.assertEqual(ids, ["helper.py:c1", "helper.py:c2"])

    def test_a_project_module_that_does_not_parse_is_planned_by_the_host(self):
        self.write_helper("""\
            def ask():
                return ask the oracle
        """)
        rewritten = "def ask():\n    return _rt.block(1)\n"
        block = {"id": "helper.py:1", "index": 1, "statement": "ask the oracle", "kind": "expression",
                 "span": {"line": 2, "column": 11, "end_line": 2, "end_column": 25}, "target": None,
                 "output_type": None, "requires_result": True, "directive": {}, "is_async": False, "function": "ask"}
        # Without a model a reached block raises AIError: enough to see which runtime it called.
        server = self.install({"rewritten": rewritten, "runtimeName": "_rt", "blocks": [block], "checkpoints": [],
                               "diagnostics": []}, model_configured=False)
        names = set(vars(builtins))
        import helper
        from aiython_bridge.errors import AIError

        with self.assertRaisesRegex(AIError, "no model configured"):
            helper.ask()
        [message] = server.sent
        self.assertEqual((message["type"], message["module"], message["entry"]), ("plan", "helper", False))
        self.assertEqual(message["path"], os.path.join(self.root, "helper.py"))
        self.assertIn("return ask the oracle", message["source"])
        self.assertEqual(set(vars(builtins)), names, "the module's runtime is a constant of its code, not a name")

    def test_diagnostics_fail_the_import_as_a_syntax_error(self):
        self.write_helper("x = pick one\n")
        self.install({"rewritten": None, "runtimeName": "_rt", "blocks": [], "checkpoints": [],
                      "diagnostics": [{"line": 3, "column": 4, "message": "malformed directive"}]})
        with self.assertRaises(SyntaxError) as caught:
            import helper  # noqa: F401
        self.assertEqual((caught.exception.msg, caught.exception.lineno, caught.exception.offset),
                         ("malformed directive", 3, 5))

    def test_a_null_plan_imports_the_module_as_cpython_would(self):
        self.write_helper("x = pick one\n")
        server = self.install(None)
        with self.assertRaises(SyntaxError):
            import helper  # noqa: F401
        self.assertEqual(len(server.sent), 1)

    def test_modules_outside_the_project_are_not_planned(self):
        server = self.install(self.plan_for)
        sys.modules.pop("colorsys", None)
        import colorsys

        self.assertEqual(server.sent, [])
        self.assertNotEqual(type(colorsys.__spec__.loader).__name__, "ProjectLoader")


if __name__ == "__main__":
    unittest.main()
