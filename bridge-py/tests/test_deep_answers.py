"""A deep answer is a tool error, never a crash (SPEC §9): when reading or checking a value would
recurse past the interpreter's limit in the paused thread (on 3.11, whose C JSON decoder counts
against it; 3.12+ count C recursion apart, and read the same value), the op answers
RecursionError instead of raising into the program. Run under 3.11, 3.12 and 3.13."""

import json
import sys
import unittest

from aiython_bridge.pauses.pause import Pause


class _Server:
    def __init__(self):
        self.channel = self
        self.sent = []

    def send(self, message):
        self.sent.append(message)

    def send_all(self, messages):
        self.sent.extend(messages)


def nested(depth):
    raw = '{"outcome":{"kind":"literal","value":%s}}' % ("[" * depth + "1" + "]" * depth)
    return raw, json.loads(raw)["outcome"]


def finish_nested(answer, frame):
    raw, outcome = answer
    server = _Server()
    info = {"id": "main.py:1", "span": {"line": 1, "column": 0, "end_line": 1, "end_column": 1}, "statement": "x",
            "target": "x", "output_type": "list[list]"}
    pause = Pause(server, info, frame, {"project_root": None})
    try:
        done, _ = pause.handle({"type": "op", "pause": pause.id, "id": "t", "op": "finish",
                                "args": {"call_id": "c", "outcome": outcome, "raw_arguments": raw}})
    finally:
        pause.close()
    return done, server.sent[0]


def depth_of(frame):
    depth = 0
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


class DeepAnswers(unittest.TestCase):
    def test_a_check_that_would_pass_the_recursion_limit_is_a_tool_error(self):
        value = nested(150)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(depth_of(sys._getframe()) + 60)
        try:
            done, answer = finish_nested(value, sys._getframe())
        finally:
            sys.setrecursionlimit(limit)
        if sys.version_info >= (3, 12) and answer["ok"]:
            return  # nothing recursed in Python: the value was read and checked
        self.assertFalse(done)
        self.assertFalse(answer["ok"], answer)
        self.assertEqual(answer["error"]["type"], "RecursionError")
        self.assertIn("nests too deeply", answer["error"]["message"])

    def test_the_same_answer_with_room_to_spare_is_the_value(self):
        done, answer = finish_nested(nested(150), sys._getframe())
        self.assertTrue(done)
        self.assertTrue(answer["ok"], answer)


if __name__ == "__main__":
    unittest.main()
