"""source_bytes against the interpreter running the tests: for each entry, what the bridge raises,
printed by sys.excepthook, is what this Python prints when it runs the same file itself."""

import os
import subprocess
import sys
import tempfile
import unittest

BRIDGE_PY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

REFUSED = {
    "not_utf8_line3.py": b'x = 1\nprint(x)\ny = "\xff"\n',
    "not_utf8_after_utf8_cookie_line.py": b"\xe9 = 1\n# coding: utf-8\n",
    "overlong.py": b'x = "\xc0\x80"\n',
    "surrogate.py": b'x = "\xed\xa0\x80"\n',
    "truncated.py": b'x = "\xe2\x82',
    "nul.py": b"x = 1\nprint(2)\x00\n",
    "nul_alone.py": b"x = 1\n\x00",
    "nul_crlf.py": b"x = 1\r\ny = 2\x00\r\n",
    "nul_then_bad.py": b"x = \x00 \xff\n",
    "bad_then_nul.py": b"x = \xff \x00\n",
    "nul_latin1.py": b'# coding: latin-1\nx = "\xe9"\x00\n',
    "nul_on_cookie_line.py": b"# coding: latin-1 \x00\nx = 1\n",
    "nul_bom.py": b"\xef\xbb\xbfx = 1\x00\n",
    "unknown_codec.py": b"# vim: set fileencoding=nonesuch :\nx = 1\n",
    "not_text_codec.py": b"# coding: base64\nx = 1\n",
    "ascii_cookie.py": b'#!/usr/bin/env python\n# coding: ascii\nx = "\xc3\xa9"\n',
    "bom_latin1.py": b"\xef\xbb\xbf# coding: latin-1\nx = 1\n",
}

ACCEPTED = {
    "utf8.py": "x = 'café'\n".encode("utf-8"),
    "utf8_cookie.py": b"# -*- coding: utf-8 -*-\nx = 1\n",
    "latin1_cookie.py": b'# coding: latin-1\nx = "\xe9"\n',
    "cookie_after_code.py": b"x = 1\n# coding: nonesuch\n",
    "bom.py": b"\xef\xbb\xbfx = 1\n",
}

BY_THE_BRIDGE = """
import sys
sys.path.insert(0, sys.argv[1])
from aiython_bridge.program import source_bytes
path = sys.argv[2]
try:
    source_bytes.check(open(path, "rb").read(), path)
except BaseException as exc:
    sys.excepthook(type(exc), exc.with_traceback(None), None)
    sys.exit(1)
"""


def run(*args):
    result = subprocess.run([sys.executable, *args], capture_output=True, timeout=60)
    return result.returncode, result.stderr


class SourceBytesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def file(self, name, data):
        path = os.path.join(os.path.realpath(self.dir.name), name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_refused_as_this_python_refuses_it(self):
        for name, data in REFUSED.items():
            with self.subTest(name):
                path = self.file(name, data)
                theirs = run(path)
                self.assertEqual(theirs[0], 1, theirs[1])
                self.assertEqual(run("-c", BY_THE_BRIDGE, BRIDGE_PY, path), theirs)

    def test_accepted_when_this_python_reads_it(self):
        for name, data in ACCEPTED.items():
            with self.subTest(name):
                path = self.file(name, data)
                self.assertEqual(run("-c", BY_THE_BRIDGE, BRIDGE_PY, path), (0, b""))


# decoded() takes a path of its own for UTF-8 and for the codec a cookie names; every source here
# decodes as decode_source does.
DECODED = [
    b"", b"x = 1\n", b"x = 1\r\n", b"x = 1\r", b"x = 1\ry = 2\n", b"x = 1\r\r\n\r", "x = 'caf\u00e9'\n".encode("utf-8"),
    b"\xef\xbb\xbfx = 1\n", b"\xef\xbb\xbf", b"# coding: utf-8\nx = 1\r\n\r", b"#!/usr/bin/env python\n# -*- coding: UTF_8 -*-\nx = 1\n",
    b"# coding: latin-1\nx = '\xe9'\n", b"#!x\r# coding: latin-1\nx = '\xe9'\n", b"x = 1\n\n# coding: latin-1\n",
    b"\xef\xbb\xbf# coding: utf-8\nx = 1\n", b"# coding: utf8\nx = 1\n",
    b"# coding: cp1252\nx = '\x80'\r\n", b"# -*- coding: ISO-8859-15 -*-\nx = '\xa4'\n", b"# coding: latin-1\r\nx = 1\r",
    b"# vim: set fileencoding=koi8-r :\n\n# coding: latin-1\ny = '\xc1'\n", b"#!/bin/sh\n# coding=ascii\nx = 1\n",
]

DECODES_WITHOUT_TOKENIZE = """
import sys
sys.path.insert(0, sys.argv[1])
from aiython_bridge.program import source_bytes
source_bytes.decoded(b"# coding: utf-8\\nx = 'caf\\xc3\\xa9'\\r\\n", "plain.py")
source_bytes.decoded(b"# coding: latin-1\\nx = 'caf\\xe9'\\r\\n", "latin.py")
source_bytes.decode_source(b"# -*- coding: cp1252 -*-\\nx = '\\x80'\\n")
sys.stderr.write(str("tokenize" in sys.modules) + "\\n")
"""

# A UTF-8 cookie on line 1, and one on line 2 behind a comment: read with neither tokenize nor re
# (an interpreter whose site imports neither, as 3.12's and 3.13's here, started with -S).
COOKIES_WITHOUT_RE = """
import sys
sys.path.insert(0, sys.argv[1])
from aiython_bridge.program import source_bytes
source_bytes.decoded(b"# -*- coding: utf-8 -*-\\nx = 1\\n", "one.py")
source_bytes.decoded(b"#!/usr/bin/env python\\n# vim: set fileencoding=utf-8 :\\nx = 1\\n", "two.py")
sys.stderr.write(str([name for name in ("re", "tokenize") if name in sys.modules]) + "\\n")
"""

# PEP 263's own pattern, which the cookie reader must agree with line by line.
COOKIE_PATTERN = rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)"
BLANK_PATTERN = rb"^[ \t\f]*(?:[#\r\n]|$)"


class DecodedTest(unittest.TestCase):
    def test_decoded_is_decode_source(self):
        sys.path.insert(0, BRIDGE_PY)
        self.addCleanup(sys.path.remove, BRIDGE_PY)
        from importlib.util import decode_source

        from aiython_bridge.program import source_bytes

        for data in DECODED:
            with self.subTest(data=data):
                self.assertEqual(source_bytes.decoded(data, "case.py"), decode_source(data))
                self.assertEqual(source_bytes.decode_source(data), decode_source(data))

    def test_utf8_and_cookie_codecs_need_no_tokenize(self):
        self.assertEqual(run("-c", DECODES_WITHOUT_TOKENIZE, BRIDGE_PY), (0, b"False\n"))

    def test_a_cookie_is_read_without_re(self):
        self.assertEqual(run("-S", "-c", COOKIES_WITHOUT_RE, BRIDGE_PY), (0, b"[]\n"))


class CookieLineTest(unittest.TestCase):
    """The cookie reader finds what PEP 263's pattern finds, on made-up lines and on the first two
    lines of every module of the standard library."""

    def lines(self):
        pieces = [b"", b" ", b"\t", b"\f", b"x", b"#", b"# ", b"coding", b"codin", b":", b"=", b": ",
                  b"utf-8", b"latin_1", b"x.y", b"-*-", b"\r\n", b"\n", b"\r", b"\xe9", b"coding:", b"coding="]
        made = [a + b + c + d for a in pieces[:6] for b in pieces for c in pieces for d in pieces[-6:]]
        stdlib = os.path.dirname(os.__file__)
        for name in sorted(os.listdir(stdlib)):
            if name.endswith(".py"):
                with open(os.path.join(stdlib, name), "rb") as f:
                    made.extend(f.read(400).splitlines(keepends=True)[:2])
        return made

    def test_head_lines_are_the_first_two_of_splitlines(self):
        sys.path.insert(0, BRIDGE_PY)
        self.addCleanup(sys.path.remove, BRIDGE_PY)
        from aiython_bridge.program import coding_cookie

        pieces = [b"", b"x", b"#", b" ", b"\n", b"\r", b"\r\n", b"\n\r", b"\x0b", b"\x0c", b"\x1c", b"\xe9"]
        sources = [a + b + c + d + e for a in pieces for b in pieces for c in pieces for d in pieces[:6] for e in pieces[:6]]
        self.assertGreater(len(sources), 50000)
        for data in sources:
            self.assertEqual(coding_cookie.head_lines(data), data.splitlines(keepends=True)[:2], data)

    def test_the_reader_agrees_with_the_pattern(self):
        import re

        sys.path.insert(0, BRIDGE_PY)
        self.addCleanup(sys.path.remove, BRIDGE_PY)
        from aiython_bridge.program import coding_cookie

        cookie, blank = re.compile(COOKIE_PATTERN, re.ASCII), re.compile(BLANK_PATTERN, re.ASCII)
        lines = self.lines()
        self.assertGreater(len(lines), 10000)
        for line in lines:
            match = cookie.match(line)
            self.assertEqual(coding_cookie.cookie_name(line), match.group(1) if match else None, line)
            self.assertEqual(coding_cookie.blank(line), blank.match(line) is not None, line)


if __name__ == "__main__":
    unittest.main()
