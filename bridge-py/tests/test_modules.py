"""modules.load under threads: several threads that reach their first AI block together each
import a hidden bridge module at once, and every one of them gets it (the table is shown by the
first and hidden by the last). Run in a child interpreter: hide() empties this one's sys.modules
of the bridge."""

import os
import subprocess
import sys
import textwrap
import unittest

BRIDGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = textwrap.dedent(
    """
    import sys, threading
    from aiython_bridge import modules
    modules.hide()
    barrier = threading.Barrier(8)
    got, failed = [], []
    def work():
        barrier.wait()
        try:
            got.append(modules.load("aiython_bridge.describe"))
        except Exception as error:
            failed.append(repr(error))
    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    ours = [name for name in sys.modules if name.startswith("aiython_bridge")]
    print(len(got), len({id(m) for m in got}), failed, ours)
    """
)


class LoadUnderThreads(unittest.TestCase):
    def test_threads_loading_at_once_all_get_the_module_and_it_stays_hidden(self):
        for attempt in range(5):
            done = subprocess.run(
                [sys.executable, "-c", CHILD], cwd=BRIDGE, capture_output=True, text=True, timeout=60
            )
            self.assertEqual(done.stderr, "")
            self.assertEqual(done.stdout, "8 1 [] []\n", f"attempt {attempt}")


if __name__ == "__main__":
    unittest.main()
