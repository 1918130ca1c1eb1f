"""Project modules imported while the program runs get their checkpoints (SPEC §4.1, §4.2):
selected by the bridge, on the module as it is when it parses (without asking the host) and on
the rewritten program of the host's plan when it does not, and none outside the project. Run
under 3.11, 3.12 and 3.13.
"""

import builtins
import os
import sys
import textwrap
import unittest

from aiython_bridge.preparation import import_hook
from aiython_bridge.recovery import sources
from tests.support import LocalDecisions, complete
from tests.program_harness import Program


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
        return {"rewritten": None, "runtimeName": "_rt", "blocks": [], "diagnostics": []}

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
        self.assertIs(type(helper.__spec__.loader), import_hook.ProjectLoader)
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
        server = self.install({"rewritten": rewritten, "runtimeName": "_rt", "blocks": [block],
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

    def test_a_planned_module_gets_its_nested_checkpoints_where_its_source_has_them(self):
        self.write_helper("""\
            def ask():
                answer = ask the oracle; n = 1
                return int(answer)
        """)
        rewritten = "def ask():\n    answer = _rt.block(1  ); n = 1\n    return int(answer)\n"
        block = {"id": "helper.py:1", "index": 1, "statement": "ask the oracle", "kind": "expression",
                 "span": {"line": 2, "column": 13, "end_line": 2, "end_column": 27}, "target": "answer",
                 "output_type": None, "requires_result": True, "directive": {}, "is_async": False, "function": "ask"}
        self.install({"rewritten": rewritten, "runtimeName": "_rt", "blocks": [block], "diagnostics": []})
        __import__("helper")

        found = [(c.id, c.statement, c.span["column"]) for c in self.program.runtime.checkpoints()
                 if c.filename.endswith("helper.py")]
        self.assertEqual(found, [("helper.py:c1", "answer = ask the oracle", 4), ("helper.py:c2", "n = 1", 29),
                                 ("helper.py:c3", "return int(answer)", 4)])

    def test_diagnostics_fail_the_import_as_a_syntax_error(self):
        self.write_helper("x = pick one\n")
        self.install({"rewritten": None, "runtimeName": "_rt", "blocks": [],
                      "diagnostics": [{"line": 3, "column": 4, "message": "malformed directive"}]})
        with self.assertRaises(SyntaxError) as caught:
            __import__("helper")
        self.assertEqual((caught.exception.msg, caught.exception.lineno, caught.exception.offset),
                         ("malformed directive", 3, 5))

    def test_a_null_plan_imports_the_module_as_cpython_would(self):
        self.write_helper("x = pick one\n")
        server = self.install(None)
        with self.assertRaises(SyntaxError):
            __import__("helper")
        self.assertEqual(len(server.sent), 1)

    def test_modules_outside_the_project_are_not_planned(self):
        server = self.install(self.plan_for)
        sys.modules.pop("colorsys", None)
        import colorsys

        self.assertEqual(server.sent, [])
        self.assertIsNot(type(colorsys.__spec__.loader), import_hook.ProjectLoader)


if __name__ == "__main__":
    unittest.main()
