"""modules.stdlib() from threads that reach the same first import together (blocks reached at once,
SPEC §8): the second thread gets the module once it is whole, never one still being initialized
(which failed five threads' blocks with "partially initialized module 'opcode' has no attribute
'opmap'")."""

import os
import sys
import tempfile
import threading
import time
import unittest

from aiython_bridge import modules

SLOW = "import time\ntime.sleep(0.3)\nvalue = 42\n"


class StdlibThreadsTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.name = "slow_module_%d" % os.getpid()
        with open(os.path.join(self.folder.name, self.name + ".py"), "w") as file:
            file.write(SLOW)
        sys.path.insert(0, self.folder.name)

    def tearDown(self):
        sys.path.remove(self.folder.name)
        sys.modules.pop(self.name, None)
        self.folder.cleanup()

    def test_a_module_another_thread_is_importing_is_handed_out_whole(self):
        first = threading.Thread(target=modules.stdlib, args=(self.name,))
        first.start()
        deadline = time.monotonic() + 5
        while self.name not in sys.modules and time.monotonic() < deadline:
            time.sleep(0.001)
        self.assertIn(self.name, sys.modules, "the first thread started its import")
        self.assertEqual(modules.stdlib(self.name).value, 42)
        first.join()


if __name__ == "__main__":
    unittest.main()
