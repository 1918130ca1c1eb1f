"""The channel's JSON from _json directly gives what json gives: the same text for every message
shape, the same values back, and json's own errors for what it refuses; and starting the bridge's
channel imports neither the json package nor the other modules a bare interpreter has not loaded."""

import json
import math
import subprocess
import sys
import unittest

from aiython_bridge import json_codec

MESSAGES = [
    {},
    {"type": "exit", "status": 3, "text": "é ☃ \U0001f600", "control": "\x00\x1f\"\\/\n"},
    {"nested": {"list": [1, -2, 3.5, 1e300, -0.0, 12345678901234567890, True, False, None, []]}, "t": (1, 2)},
    {1: "int key", 2.5: "float key", False: "bool key", None: "none key"},
    {"deep": [[[[{"a": [{}]}]]]]},
]


def reference(message, ensure_ascii):
    return json.JSONEncoder(ensure_ascii=ensure_ascii, separators=(",", ":"), allow_nan=False).encode(message)


class EncodeTest(unittest.TestCase):
    def test_the_same_text_as_json(self):
        for message in MESSAGES + ["a string", 7]:
            for ensure_ascii in (False, True):
                with self.subTest(message=message, ensure_ascii=ensure_ascii):
                    self.assertEqual(json_codec.encode(message, ensure_ascii), reference(message, ensure_ascii))

    def test_a_lone_surrogate_is_kept_or_escaped_as_json_does(self):
        message = {"path": "/tmp/\udcff"}
        self.assertEqual(json_codec.encode(message), reference(message, False))
        self.assertEqual(json_codec.encode(message, ensure_ascii=True), '{"path":"/tmp/\\udcff"}')

    def test_the_same_errors_as_json(self):
        circular = []
        circular.append(circular)
        for bad in ({"v": object()}, {"v": math.nan}, {"v": math.inf}, {"v": circular}, {"v": {"w": {1, 2}}}):
            with self.subTest(bad=bad):
                with self.assertRaises(Exception) as theirs:
                    reference(bad, False)
                with self.assertRaises(type(theirs.exception)) as ours:
                    json_codec.encode(bad)
                self.assertEqual(str(ours.exception), str(theirs.exception))

    def test_a_failed_encoding_leaves_nothing_behind_for_the_next(self):
        shared = {"x": 1}
        with self.assertRaises(TypeError):
            json_codec.encode({"a": [shared, {"b": object()}]})
        self.assertEqual(json_codec.encode({"a": [shared]}), '{"a":[{"x":1}]}')


class DecodeTest(unittest.TestCase):
    def test_the_same_values_as_json(self):
        for message in MESSAGES:
            text = json.dumps(message)
            with self.subTest(text=text):
                self.assertEqual(json_codec.decode(text), json.loads(text))
        for text in ('{"n": NaN, "i": Infinity, "m": -Infinity}', '  {"a": 1}  ', '"s"', "1.5", "[]"):
            with self.subTest(text=text):
                self.assertEqual(repr(json_codec.decode(text)), repr(json.loads(text)))

    def test_numbers_keep_their_types(self):
        value = json_codec.decode('{"i": 10, "f": 1.0, "e": 1e2, "big": 123456789012345678901234567890}')
        self.assertEqual([type(v) for v in value.values()], [int, float, float, int])

    def test_the_same_errors_as_json(self):
        for text in ("", "{", '{"a": 1} x', "\ufeff{}", '{"a": "\x01"}', "[1,]", "nul", '{"a" 1}'):
            with self.subTest(text=text):
                with self.assertRaises(json.JSONDecodeError) as theirs:
                    json.loads(text)
                with self.assertRaises(json.JSONDecodeError) as ours:
                    json_codec.decode(text)
                self.assertEqual(str(ours.exception), str(theirs.exception))


class StartTest(unittest.TestCase):
    def test_the_channel_and_boot_import_no_python_module_of_the_standard_library(self):
        # json for the channel, struct for its header, re and importlib.util for source_bytes,
        # functools for the program's partial: each costs a start where site has not imported it
        # (3.12 and 3.13 here) and would be in the program's sys.modules.
        code = (
            "import sys; sys.path.insert(0, sys.argv[1]); import aiython_bridge.boot, aiython_bridge.server, aiython_bridge.program.runner; "
            "aiython_bridge.boot._encode_hello({'type': 'hello'}); "
            "names = ('json', 'struct', 're', 'functools', 'importlib.util', 'importlib.machinery', 'enum', 'collections'); "
            "print(sorted(n for n in sys.modules if n in names or n.startswith('json.')))"
        )
        top = __import__("os").path.dirname(__import__("os").path.dirname(json_codec.__file__))
        out = subprocess.run([sys.executable, "-S", "-c", code, top], capture_output=True, text=True, check=True).stdout
        self.assertEqual(out, "[]\n")


if __name__ == "__main__":
    unittest.main()
