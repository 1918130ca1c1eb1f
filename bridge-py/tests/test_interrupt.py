"""Interrupting an op that outlives its time (SPEC §9, frameops/interrupt.py) through the bridge's
own pause code: the host's `interrupt` (pauses/pause.py's route) ends a sleep or a busy loop on the main
thread and on another thread, typed names the op left wrong are put back, and an interrupt that
comes after the op has ended changes nothing. Run under 3.11, 3.12 and 3.13."""

import _signal
import sys
import threading
import time
import unittest

from aiython_bridge.frameops import interrupt
from aiython_bridge.pauses.pause import Pause, route


class _Server:
    gone = False

    def __init__(self):
        self.channel = self
        self.sent = []

    def send(self, message):
        self.sent.append(message)

    def start_reader(self):
        """The host's messages are delivered by the test itself."""


def open_pause(server, frame):
    """A pause announced as the runtime announces one (so the host's messages reach it)."""
    info = {"id": "main.py:1", "span": {"line": 1, "column": 0, "end_line": 1, "end_column": 1}, "statement": "x"}
    pause = Pause(server, info, frame, {"project_root": None})
    pause.announce(lambda message: None)
    server.sent.clear()  # the `pause` message itself
    return pause


def run_op(code, frame, *, interrupt_after=None):
    """Serves one `execute` of `code` on a pause of `frame`; `interrupt_after` seconds in, the host's
    interrupt arrives on another thread (as the reader thread delivers it). Returns the answer."""
    server = _Server()
    pause = open_pause(server, frame)
    message = {"type": "op", "pause": pause.id, "id": "o1", "op": "execute", "args": {"call_id": "c1", "code": code}}
    if interrupt_after is not None:
        def host():
            time.sleep(interrupt_after)
            route(server, {"type": "interrupt", "pause": pause.id, "id": "o1"})
        threading.Thread(target=host, daemon=True).start()
    try:
        pause.handle(message)
    finally:
        pause.close()
    [answer] = server.sent
    return answer


class Interrupt(unittest.TestCase):
    def assertInterrupted(self, answer):
        self.assertFalse(answer["ok"], answer)
        self.assertEqual(answer["error"]["type"], "ToolInterrupted")

    def test_a_sleep_on_the_main_thread_ends(self):
        started = time.monotonic()
        self.assertInterrupted(run_op("import time\ntime.sleep(30)", sys._getframe(), interrupt_after=0.2))
        self.assertLess(time.monotonic() - started, 10)
        self.assertEqual(_signal.getsignal(interrupt.SIGNAL), _signal.SIG_DFL, "the handler is gone again")

    def test_a_busy_loop_on_another_thread_ends(self):
        answers = []

        def work():
            answers.append(run_op("while True:\n    pass", sys._getframe(), interrupt_after=0.2))

        thread = threading.Thread(target=work)
        thread.start()
        thread.join(10)
        self.assertFalse(thread.is_alive())
        self.assertInterrupted(answers[0])

    def test_code_that_catches_it_once_is_interrupted_again(self):
        code = "import time\ntry:\n    time.sleep(30)\nexcept BaseException:\n    pass\ntime.sleep(30)"
        self.assertInterrupted(run_op(code, sys._getframe(), interrupt_after=0.2))

    def test_typed_names_are_put_back(self):
        def function():
            count: int = 1
            answer = run_op("count = 'many'\nwhile True:\n    pass", sys._getframe(), interrupt_after=0.2)
            return answer, count

        answer, count = function()
        self.assertInterrupted(answer)
        self.assertEqual(count, 1)

    def test_an_interrupt_after_the_op_changes_nothing(self):
        server = _Server()
        pause = open_pause(server, sys._getframe())
        try:
            pause.handle({"type": "op", "pause": pause.id, "id": "o1", "op": "execute", "args": {"call_id": "c", "code": "y = 1"}})
            self.assertFalse(interrupt.interrupt(pause.id))
            route(server, {"type": "interrupt", "pause": pause.id, "id": "o1"})
            time.sleep(0.1)
        finally:
            pause.close()
        self.assertTrue(server.sent[0]["ok"])


if __name__ == "__main__":
    unittest.main()
