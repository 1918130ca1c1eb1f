"""The checkpoint runtime is loaded at the first failure (recovery/sources.py, SPEC §12): a
program whose checkpoints never fail never imports checkpoints.py or what it imports, and the
first failure gets the real runtime, which knows every file bound before it and decides as
CheckpointRuntime does. Each case runs in a fresh interpreter, so sys.modules is its own.
"""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

BRIDGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = textwrap.dedent("""\
    import os, sys
    sys.path.insert(0, sys.argv[1])
    from aiython_bridge.preparation import prepare
    from aiython_bridge.recovery import sources
    from aiython_bridge.recovery.sources import DeferredRuntime
    from tests.support import LocalDecisions

    def complete(request, op):
        assert op("recover", {"action": "complete", "outcome": {"kind": "literal", "value": 5}})["ok"]

    HEAVY = ["aiython_bridge.recovery." + name for name in ("checkpoints", "callers", "handlers", "eligibility")]
    root = sys.argv[2]
    sources._runtime = DeferredRuntime(LocalDecisions(complete), project_root=root)
    options = {"model_configured": True, "project_root": root}

    def run(name, text):
        path = os.path.join(root, name)
        code = prepare.entry_code(None, options, text, path, lambda planned: None)
        exec(code, {"__name__": "__main__", "__file__": path})

    run("first.py", "total = sum([1, 2, 3])\\nprint('first', total)\\n")
    print("loaded before a failure:", [name for name in HEAVY if name in sys.modules])
    run("second.py", "value = int('not a number')\\nprint('second', value)\\n")
    print("loaded after it:", [name for name in HEAVY if name in sys.modules] == HEAVY)
    real = sources._runtime.real()
    print("files:", sorted({os.path.basename(c.filename) for c in real.checkpoints()}))
    print("project:", [real.callers.kind(os.path.join(root, n)) for n in ("first.py", "second.py")])
""")


class DeferredRuntimeTest(unittest.TestCase):
    def test_the_runtime_loads_at_the_first_failure_and_knows_every_file(self):
        root = tempfile.mkdtemp(prefix="aiython-deferred-")
        self.addCleanup(lambda: __import__("shutil").rmtree(root, True))
        result = subprocess.run([sys.executable, "-c", SCRIPT, BRIDGE, root], capture_output=True, text=True,
                                cwd=BRIDGE, env={**os.environ, "PYTHONPATH": BRIDGE})
        self.assertEqual(result.stderr, "")
        self.assertEqual(result.stdout.splitlines(), [
            "first 6",
            "loaded before a failure: []",
            "second 5",
            "loaded after it: True",
            "files: ['first.py', 'second.py']",
            "project: ['project', 'project']",
        ])


if __name__ == "__main__":
    unittest.main()
