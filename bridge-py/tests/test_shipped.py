"""Instrumented code shipped by value, as cloudpickle (joblib, Dask, Ray) ships a function of
`__main__` (recovery/shipped.py): its constants pickle, the handlers' calls and the file's
FileExceptions as built-ins, and a plain python3 with no aiython runs the code as python3 would,
a handled failure, an uncaught one and a `return` included. cloudpickle itself is not installed
here; code objects go by a reducer of this test's (`shipkit.rebuild`: marshal of the code without
its constants, the constants pickled), which is what cloudpickle does with them in its own way.
"""

import marshal
import os
import pickle
import subprocess
import sys
import tempfile
import unittest

from tests.program_harness import Program

SOURCE = """
def parse(text):
    value = int(text)
    return value

def twice(text):
    return parse(text) * 2

def parse_all(texts):
    out = []
    for text in texts:
        try:
            out.append(parse(text))
        except ValueError:
            out.append(None)
    return out
"""

SHIPKIT = """
import marshal

def rebuild(code, consts):
    return marshal.loads(code).replace(co_consts=consts)
"""

THERE = """
import builtins, pickle, sys
sys.path.insert(0, sys.argv[1])
code = pickle.loads(sys.stdin.buffer.read())
namespace = {"__name__": "shipped", "__builtins__": builtins}
exec(code, namespace)
print(namespace["parse_all"](["1", "x", "3"]), namespace["twice"]("4"))
print("aiython here:", any(name.startswith("aiython") for name in sys.modules))
try:
    namespace["twice"]("x")
except ValueError as error:
    print("ValueError", error, error.__traceback__.tb_next.tb_frame.f_code.co_name)
"""


class Shipped(unittest.TestCase):
    def setUp(self):
        self.kit = tempfile.mkdtemp(prefix="aiython-shipkit-")
        with open(os.path.join(self.kit, "shipkit.py"), "w", encoding="utf-8") as f:
            f.write(SHIPKIT)
        sys.path.insert(0, self.kit)
        self.addCleanup(sys.path.remove, self.kit)
        self.addCleanup(sys.modules.pop, "shipkit", None)

    def shipped(self, code) -> bytes:
        import shipkit

        class Pickler(pickle.Pickler):
            def reducer_override(self, obj):
                if type(obj) is type(code):
                    return shipkit.rebuild, (marshal.dumps(obj.replace(co_consts=())), obj.co_consts)
                return NotImplemented

        pickler = Pickler(buffer := __import__("io").BytesIO())
        pickler.dump(code)
        return buffer.getvalue()

    def run_there(self, data: bytes) -> str:
        done = subprocess.run([sys.executable, "-I", "-c", THERE, self.kit], input=data, capture_output=True,
                              timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr.decode())
        return done.stdout.decode()

    def test_instrumented_code_runs_in_a_python_without_aiython_as_plain_code(self):
        program = Program(self, SOURCE)
        plain, instrumented = program.compile(False), program.compile(True)
        consts = [type(c).__name__ for nested in instrumented.co_consts if hasattr(nested, "co_consts")
                  for c in nested.co_consts]
        self.assertIn("HandlerCall", consts, "the handlers' calls are constants of the code")
        self.assertIn("FileExceptions", consts)
        expected = "[1, None, 3] 8\naiython here: False\nValueError invalid literal for int() with base 10: 'x' twice\n"
        self.assertEqual(self.run_there(self.shipped(plain)), expected)
        self.assertEqual(self.run_there(self.shipped(instrumented)), expected)


if __name__ == "__main__":
    unittest.main()
