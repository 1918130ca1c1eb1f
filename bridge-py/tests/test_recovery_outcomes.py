"""Recovery at run time, continued (SPEC §4.2, §5.2 `recover`): what a decision may give back
(exception groups, finally blocks, annotated targets, expression outcomes), what happens when the
decision source fails, generators, recursion, threads and coroutines; the same fake decision
source as test_recovery.py. Run under 3.11, 3.12 and 3.13.
"""

import unittest

from tests.support import complete
from tests.program_harness import Program


class Outcomes(unittest.TestCase):
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
