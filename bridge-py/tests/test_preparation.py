"""Preparing sources through the cache (SPEC §4.1, preparation/prepare.py): a second preparation of
an unchanged source neither parses nor asks the host for a plan, and runs the same; a corrupt
entry is rebuilt; an entry program's compile warnings are shown on a hit as python3 shows them,
a module's never by us; a changed source, another variant or the cache switched off is a miss.
"""

import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest
import warnings
from unittest import mock

from aiython_bridge.preparation import program_code
from aiython_bridge.errors import AIError
from aiython_bridge.preparation import collector, prepare

VALID = "total = 0\nfor i in range(4):\n    total += i\nprint('total', total)\n"
WITH_BLOCK = "x = fetch the answer\nprint(x)\n"
PLAN = {
    "filename": "", "displayName": "prog.py", "rewritten": "x = _rt_.block(1)\nprint(x)\n", "runtimeName": "_rt_",
    "blocks": [{"id": "prog.py:1", "index": 1, "statement": "fetch the answer", "kind": "expression",
                "span": {"line": 1, "column": 4, "end_line": 1, "end_column": 20}, "target": "x", "output_type": None,
                "requires_result": True, "directive": {"profile": None, "prompts": [], "capability": None, "provider": None},
                "is_async": False, "function": None}],
    "diagnostics": [],
}


def vars_of(checkpoint):
    return {name: getattr(checkpoint, name) for name in type(checkpoint).__slots__}


class FakeServer:
    pid = os.getpid()
    exiting = False
    pause_router = None


class PreparationCase(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="aiython-prepare-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.path = os.path.join(self.root, "prog.py")
        self.folder = os.path.join(self.root, ".aiython", "cache")
        self.server = FakeServer()
        self.plans = []
        patcher = mock.patch.object(sys, "dont_write_bytecode", False)
        patcher.start()
        self.addCleanup(patcher.stop)
        prepare._caches.clear()

    def options(self, *, configured=True, cache=True):
        return {"model_configured": configured, "project_root": self.root, "context_values": True,
                "cache": {"dir": self.folder, "version": "test", "max_bytes": 1 << 20} if cache else None}

    def plan_for(self, text):
        self.plans.append(text)
        return dict(PLAN, filename=self.path)

    def entry(self, source, **options):
        return prepare.entry_code(self.server, self.options(**options), source.encode(), self.path, self.plan_for)

    def run_code(self, code):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
        return out.getvalue()

    def entries(self):
        return sorted(os.listdir(self.folder)) if os.path.isdir(self.folder) else []


def handler_objects(code) -> list:
    """The handler objects `code`'s own constants hold (each in its file's calls.FileExceptions)."""
    return [c.owner for c in code.co_consts
            if type(c).__name__ == "FileExceptions" and type(c.owner).__name__ == "DeferredCheckpoints"]


class Hits(PreparationCase):
    def test_a_hit_with_blocks_tells_the_host_once_and_one_without_never(self):
        sent = []
        self.server.channel = mock.Mock(send=sent.append)
        prepare._told_blocks.clear()
        self.entry(WITH_BLOCK)  # a miss: the plan request told the host
        self.entry(VALID)
        self.entry(VALID)  # a hit without blocks
        self.assertEqual(sent, [])
        self.entry(WITH_BLOCK)
        self.entry(WITH_BLOCK)
        self.assertEqual(sent, [{"type": "blocks_ahead"}])
        self.assertEqual(len(self.plans), 1)

    def test_a_valid_entry_program_is_not_parsed_again(self):
        first = self.run_code(self.entry(VALID))
        self.assertEqual(first, "total 6\n")
        self.assertEqual(len(self.entries()), 1)
        with mock.patch.object(program_code, "parse_quietly", side_effect=AssertionError("parsed on a hit")), \
                mock.patch.object(program_code, "compile_unbound", side_effect=AssertionError("compiled on a hit")):
            code = self.entry(VALID)
        self.assertEqual(self.run_code(code), first)

    def test_a_hit_is_bound_to_this_process_runtime(self):
        code = self.entry(VALID)
        self.assertEqual(len(handler_objects(code)), 1, "the entry's checkpoints call one DeferredCheckpoints")
        self.assertEqual(len(handler_objects(self.entry(VALID))), 1)

    def test_a_hit_reads_its_checkpoints_only_when_one_is_needed(self):
        from aiython_bridge.recovery import sources

        def table(code):
            [bound] = handler_objects(code)
            return bound._table

        missed = table(self.entry(VALID))
        with mock.patch.object(sources, "_runtime", None):
            hit = table(self.entry(VALID))
        self.assertIs(type(hit._infos), bytes, "kept packed: no checkpoint read on import")
        self.assertEqual(hit._made, {})
        self.assertEqual([vars_of(c) for c in hit.all()], [vars_of(c) for c in missed.all()])
        self.assertIs(hit[1], hit[1], "made once: the runtime keys a failure's state by it")

    def test_a_program_with_a_block_asks_the_host_once(self):
        for _ in range(2):
            code = self.entry(WITH_BLOCK, configured=False)
            with self.assertRaisesRegex(AIError, "no model configured"):
                self.run_code(code)
        self.assertEqual(self.plans, [WITH_BLOCK])

    def test_a_corrupt_entry_is_rebuilt(self):
        self.entry(VALID)
        [name] = self.entries()
        with open(os.path.join(self.folder, name), "r+b") as f:
            f.truncate(30)
        self.assertEqual(self.run_code(self.entry(VALID)), "total 6\n")
        with mock.patch.object(program_code, "parse_quietly", side_effect=AssertionError("parsed on a hit")):
            self.assertEqual(self.run_code(self.entry(VALID)), "total 6\n")

    def test_a_payload_of_the_wrong_shape_is_a_miss(self):
        options = self.options()
        cache = prepare.cache_for(options)
        key = cache.key(VALID.encode(), self.path, prepare._variant(True, options))
        for bad in [("not", "a", "record"), (1, [], [], [], False), (compile("", "", "exec"), [1], [], [], False)]:
            cache.store(key, bad)
            self.assertEqual(self.run_code(self.entry(VALID)), "total 6\n")


class Misses(PreparationCase):
    def test_a_changed_source_is_a_miss(self):
        self.entry(VALID)
        changed = VALID.replace("range(4)", "range(5)")
        self.assertEqual(self.run_code(self.entry(changed)), "total 10\n")
        self.assertEqual(len(self.entries()), 2)

    def test_entry_and_module_and_recovery_on_or_off_are_separate_entries(self):
        self.entry(VALID)
        self.assertEqual(len(self.entries()), 1)
        prepare.module_code(self.server, self.options(), VALID.encode(), self.path, self.plan_for)
        self.assertEqual(len(self.entries()), 2)
        self.entry(WITH_BLOCK, configured=False)
        self.entry(WITH_BLOCK, configured=True)
        self.assertEqual(len(self.entries()), 4)

    def test_the_cache_off_writes_nothing_and_plans_every_time(self):
        for _ in range(2):
            self.entry(WITH_BLOCK, cache=False)
        self.assertEqual(len(self.plans), 2)
        self.assertFalse(os.path.exists(os.path.join(self.root, ".aiython")))

    def test_a_plan_with_diagnostics_is_never_stored(self):
        def faulty(text):
            return dict(PLAN, diagnostics=[{"line": 1, "column": 0, "message": "malformed directive"}])

        with self.assertRaises(SyntaxError):
            prepare.module_code(self.server, self.options(), WITH_BLOCK.encode(), self.path, faulty)
        self.assertEqual(self.entries(), [])


class Warnings(PreparationCase):
    SOURCE = "x = 5\nprint(x is 5)\n"

    def shown(self, prepare_once):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            prepare_once()
        return [(w.category.__name__, w.lineno) for w in caught]

    def test_an_entry_program_shows_its_compile_warnings_on_every_run(self):
        expected = self.shown(lambda: compile(self.SOURCE, self.path, "exec", dont_inherit=True))
        self.assertEqual(expected, [("SyntaxWarning", 2)])
        self.assertEqual(self.shown(lambda: self.entry(self.SOURCE)), expected)  # a miss
        with mock.patch.object(program_code, "parse_quietly", side_effect=AssertionError("parsed on a hit")):
            self.assertEqual(self.shown(lambda: self.entry(self.SOURCE)), expected)  # a hit

    def test_a_module_shows_none_of_its_own(self):
        """Its loader (CPython's SourceFileLoader.get_code, or the pyc) decides what python3 shows."""
        module = lambda: prepare.module_code(self.server, self.options(), self.SOURCE.encode(), self.path, self.plan_for)  # noqa: E731
        self.assertEqual(self.shown(module), [])
        self.assertEqual(self.shown(module), [])


class Collector(PreparationCase):
    def test_the_collector_is_paused_while_a_module_is_prepared_and_only_then(self):
        import gc

        seen = []
        real = prepare._checkpointed_as_it_is

        def spy(*args):
            seen.append(gc.isenabled())
            return real(*args)

        with mock.patch.object(prepare, "_checkpointed_as_it_is", spy):
            code = prepare.module_code(self.server, self.options(), b"def f():\n    return 1\n", self.path, self.plan_for)
            self.assertEqual(seen, [False])
            self.assertTrue(gc.isenabled())
            gc.disable()  # the program's own choice is kept
            try:
                prepare.module_code(self.server, self.options(cache=False), b"x = 1\n", self.path, self.plan_for)
                self.assertFalse(gc.isenabled())
            finally:
                gc.enable()
        self.assertIsNotNone(code)

    def test_pausing_it_puts_no_gc_module_in_sys_modules(self):
        saved = sys.modules.pop("gc", None)
        collector._gc.clear()
        try:
            prepare.module_code(self.server, self.options(), b"def f():\n    return 1\n", self.path, self.plan_for)
            self.assertNotIn("gc", sys.modules)
        finally:
            collector._gc.clear()
            if saved is not None:
                sys.modules["gc"] = saved


if __name__ == "__main__":
    unittest.main()
