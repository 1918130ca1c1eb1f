"""The compiler's warnings held back while the bridge compiles a source again
(compiler_warnings.py), and what that leaves in sys.modules: python3's own modules, with and
without the program's own `warnings`. Each case runs in a fresh interpreter started with -S, whose
start imports no `warnings` (as 3.12's and 3.13's own start do not)."""

import os
import subprocess
import sys
import unittest

BRIDGE_PY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRELUDE = """
import sys
sys.path.insert(0, sys.argv[1])
"""

ADOPTED_THEN_HIDDEN = PRELUDE + """
from aiython_bridge import modules
from aiython_bridge.preparation import program_code
print("with the bridge imported:", "warnings" in sys.modules)
tree, warned = program_code.parse_quietly("x = '\\\\d'\\n", "w.py")
print("warned:", warned)
modules.hide()
print("after hide:", "warnings" in sys.modules)
import warnings
tree, warned = program_code.parse_quietly("x = '\\\\d'\\n", "w.py")
print("warned with the program's own:", warned)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    compile("y = '\\\\d'\\n", "p.py", "exec")
print("the program's catch:", len(caught))
"""

IMPORTED_BEFORE = PRELUDE + """
import warnings
from aiython_bridge import modules
from aiython_bridge.preparation import program_code
tree, warned = program_code.parse_quietly("x = '\\\\d'\\n", "w.py")
modules.hide()
print(warned, sys.modules.get("warnings") is warnings)
"""

EXTENSIONS = PRELUDE + """
from aiython_bridge import modules
import _functools, _json
import functools
modules.drop_start_extensions(frozenset())
print("_functools" in sys.modules, "_json" in sys.modules)
"""


def run(script):
    result = subprocess.run([sys.executable, "-S", "-c", script, BRIDGE_PY], capture_output=True, env={**os.environ, "PYTHONWARNINGS": ""})
    return result.returncode, result.stdout.decode(), result.stderr.decode()


class HeldBackTest(unittest.TestCase):
    def test_the_bridges_warnings_module_leaves_sys_modules_and_shows_nothing(self):
        self.assertEqual(run(ADOPTED_THEN_HIDDEN), (0, "with the bridge imported: False\nwarned: True\nafter hide: False\n"
                                                    "warned with the program's own: True\nthe program's catch: 1\n", ""))

    def test_a_warnings_module_imported_before_stays(self):
        self.assertEqual(run(IMPORTED_BEFORE), (0, "True True\n", ""))

    def test_an_extension_a_standard_module_imported_stays(self):
        self.assertEqual(run(EXTENSIONS), (0, "True False\n", ""))


if __name__ == "__main__":
    unittest.main()
