"""Recovery at run time (SPEC §4.2, §5.2 `recover`): instrumented programs whose failures are put
to a fake decision source standing in for the host's model loop. The source gets the request the
host would get and calls frame operations and the terminal `recover` exactly as the host would
(tests/support.py), so every decision goes through the bridge's own pause code.
Run under 3.11, 3.12 and 3.13.
"""

import unittest

from aiython_bridge.recovery.completion import skipped_by_complete
from tests.support import complete
from tests.program_harness import Program, program_traceback


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
            "origin": {"file": "prog.py", "line": 3}, "attempt": 1, "retry_allowed": True, "target": "name", "line": 3,
        })
        self.assertNotIn("complete_skips", request["recovery"])
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

    def test_complete_at_a_loop_says_it_skips_the_rest_of_the_loop(self):
        """A failure in a `with` body inside a top-level loop is decided at the loop (SPEC §4.2):
        the request says what `complete` skips there, and completing does skip it."""
        program = Program(self, """
            import io
            rows = []
            for raw in ["1", "x", "3"]:
                with io.StringIO(raw) as f:
                    rows.append(int(f.read()))
            print(rows)
        """, complete())
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "[1]\n")  # "3" was never read: the rest of the loop was skipped
        [request] = program.requests
        self.assertEqual(request["location"]["line"], 4)
        self.assertEqual(request["recovery"]["line"], 6)
        self.assertEqual(request["recovery"]["complete_skips"],
                         "the rest of the for loop of line 4, its remaining iterations included")

    def test_complete_skips_in_words_for_each_compound_statement(self):
        cases = [
            ("for x in xs:\n    f(x)", 4, "the rest of the for loop of line 3, its remaining iterations included"),
            ("async for x in xs:\n    f(x)", 3, "all of the for loop of line 3 (it failed in its first line)"),
            ("with open(p) as f:\n    f.read()", 4, "the rest of the with body of line 3"),
            ("if ready:\n    go()", 4, "the rest of the if statement of line 3"),
            ("try:\n    go()\nfinally:\n    stop()", 4, "the rest of the try statement of line 3"),
            ("@cache\ndef load(path=default()):\n    pass", 3, "the rest of the def statement of line 3: load stays unbound"),
            ("class Report(Base):\n    x = 1 / 0", 4, "the rest of the class statement of line 3: Report stays unbound"),
        ]
        for statement, failed, words in cases:
            with self.subTest(statement=statement):
                self.assertEqual(skipped_by_complete(statement, 3, failed), words)

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
