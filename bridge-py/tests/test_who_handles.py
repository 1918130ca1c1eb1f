"""Only an exception that nothing on the stack would handle is put to the model (SPEC §4.2,
recovery/callers.py and handlers.py): library code that catches it — unittest's runner,
doctest, assertRaises, concurrent.futures, gather(return_exceptions=True), contextlib.suppress in
a library — sees it exactly as under python3, with no consultation and no note, while a thread's
or a task's exception that nobody takes is still recovered.
"""

import os
import sys
import tempfile
import textwrap
import shutil
import unittest

from tests.program_harness import Program

REFUSED = "consulted"


def refuse(request, op):
    raise AssertionError(f"{REFUSED}: {request['statement']}")


def complete(value):
    def decide(request, op):
        assert op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": value}})["ok"]
    return decide


class HandledByLibraries(unittest.TestCase):
    def run_quietly(self, source, decide=refuse):
        program = Program(self, source, decide)
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(program.requests, [])
        return out

    def test_a_failing_test_of_unittests_runner(self):
        out = self.run_quietly("""
            import io, unittest
            class T(unittest.TestCase):
                def test_fails(self):
                    value = {}["missing"]
            result = unittest.TextTestRunner(stream=io.StringIO()).run(unittest.defaultTestLoader.loadTestsFromTestCase(T))
            print(len(result.errors), "aiython:" in str(result.errors))
        """)
        self.assertEqual(out, "1 False\n")

    def test_doctest_examples_that_raise(self):
        out = self.run_quietly('''
            import doctest
            def f():
                """
                >>> f()
                Traceback (most recent call last):
                ZeroDivisionError: division by zero
                """
                ratio = 1 / 0
                return ratio
            [test] = doctest.DocTestFinder().find(f, "f", globs=globals())
            print(doctest.DocTestRunner(verbose=False).run(test))
        ''')
        self.assertEqual(out, "TestResults(failed=0, attempted=1)\n")

    def test_assert_raises_with_a_callable(self):
        out = self.run_quietly("""
            import unittest
            def boom():
                value = int("x")
                return value
            case = unittest.TestCase()
            case.assertRaises(ValueError, boom)
            with case.assertRaises(ValueError):
                boom()
            print("ok")
        """)
        self.assertEqual(out, "ok\n")

    def test_a_thread_pool_future(self):
        out = self.run_quietly("""
            from concurrent.futures import ThreadPoolExecutor
            def work():
                value = [][0]
                return value
            with ThreadPoolExecutor(1) as pool:
                future = pool.submit(work)
                print(type(future.exception()).__name__)
        """)
        self.assertEqual(out, "IndexError\n")

    def test_gather_with_return_exceptions(self):
        out = self.run_quietly("""
            import asyncio
            async def work():
                value = {}["k"]
                return value
            async def main():
                print(await asyncio.gather(work(), return_exceptions=True))
            asyncio.run(main())
        """)
        self.assertEqual(out, "[KeyError('k')]\n")

    def test_a_task_awaited_inside_a_try(self):
        out = self.run_quietly("""
            import asyncio
            async def work():
                value = {}["k"]
                return value
            async def main():
                task = asyncio.ensure_future(work())
                try:
                    await task
                except KeyError:
                    print("caught")
            asyncio.run(main())
        """)
        self.assertEqual(out, "caught\n")

    def test_contextlib_suppress_in_a_library_frame(self):
        library = tempfile.mkdtemp(prefix="aiython-library-")
        self.addCleanup(shutil.rmtree, library, True)
        with open(os.path.join(library, "quietlib.py"), "w") as f:
            f.write(textwrap.dedent("""\
                import contextlib
                def call_quietly(callback):
                    with contextlib.suppress(LookupError):
                        callback()
                    return "done"
            """))
        sys.path.insert(0, library)
        self.addCleanup(sys.path.remove, library)
        self.addCleanup(sys.modules.pop, "quietlib", None)
        out = self.run_quietly("""
            import quietlib
            def callback():
                value = {}["k"]
            print(quietlib.call_quietly(callback))
        """)
        self.assertEqual(out, "done\n")


class NobodyHandles(unittest.TestCase):
    def test_a_thread_whose_function_fails(self):
        program = Program(self, """
            import threading
            def work(results):
                value = {}["k"]
                results.append(value)
            results = []
            thread = threading.Thread(target=work, args=(results,))
            thread.start()
            thread.join()
            print(results)
        """, complete(7))
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "[7]\n")
        self.assertEqual(len(program.requests), 1)

    def test_a_task_nobody_awaits(self):
        program = Program(self, """
            import asyncio
            async def work(results):
                value = {}["k"]
                results.append(value)
            async def main():
                results = []
                task = asyncio.ensure_future(work(results))
                await asyncio.sleep(0)
                await asyncio.sleep(0)
                print(task.done(), results)
            asyncio.run(main())
        """, complete(3))
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "True [3]\n")

    def test_gather_without_return_exceptions_passes_it_to_the_awaiting_task(self):
        program = Program(self, """
            import asyncio
            async def work():
                value = {}["k"]
                return value
            async def main():
                print(await asyncio.gather(work()))
            asyncio.run(main())
        """, complete(5))
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "[5]\n")
        self.assertEqual(program.requests[0]["statement"], 'value = {}["k"]')

    def test_a_declined_task_failure_ends_the_task_exactly_as_cpython(self):
        program = Program(self, """
            import asyncio
            async def work():
                value = {}["k"]
            async def main():
                task = asyncio.ensure_future(work())
                await asyncio.sleep(0)
                print(task.done(), repr(task.exception()), getattr(task.exception(), "__notes__", None))
            asyncio.run(main())
        """, lambda request, op: op("fail", {"reason": "the model could not be reached"}))
        out, error = program.run()
        self.assertIsNone(error)
        self.assertEqual(out, "True KeyError('k') None\n")


if __name__ == "__main__":
    unittest.main()
