"""The entry program's bytes as python3 takes them before anything is parsed (SPEC §4.1:
entries that are not programs): a compiled file, `-x`, and the sources CPython refuses before
parsing, with the very error python3 prints.

python3 reads a script file through its file tokenizer (Parser/tokenizer.c), whose errors differ
from those of compile() on the same bytes, which the bridge uses: without a coding cookie, the
first line holding bytes that are not UTF-8 gives "Non-UTF-8 code starting with ..."; a line
holding a NUL byte gives "source code cannot contain null bytes" at that line; a cookie naming
an unknown codec, or one whose codec fails on the first chunk read after it (io's 8 KiB), gives
"encoding problem: NAME" (so does any such cookie on a pipe: CPython seeks to reopen the
file with the codec). Lines are read in order, so whichever comes first wins; such an error
also wins over the parser's (CPython tokenizes the rest of the source before it reports a parse
error). Not reproduced: a tokenizer error on an earlier line (an unmatched ')') that python3
reports first, and a codec failing after its first chunk (compile()'s wording is raised).

A compiled file (`.pyc`, or CPython's magic number in its first two bytes, not looked for under
-x) runs as run_pyc_file() in Python/pythonrun.c runs it, with its errors.
"""

import _io
import codecs
import marshal
import os
import sys
# importlib.util's own two, from where it takes them: importlib.util (and re, for the cookie:
# coding_cookie.py) would cost a start on an interpreter whose site imports neither, and show in the
# program's sys.modules
from _frozen_importlib_external import MAGIC_NUMBER, decode_source as _importlib_decode_source

from aiython_bridge.program import coding_cookie

__all__ = [
    "as_opened", "check", "compiled_code", "decode_source", "decoded", "is_compiled", "read_source",
    "seekable", "without_first_line",
]

_BOM = codecs.BOM_UTF8
_FIRST_CHUNK = 8192  # io.TextIOWrapper's first read, decoded at once after a cookie
_NON_UTF8 = (
    "Non-UTF-8 code starting with '\\x%.2x' in file %s on line %d, but no encoding declared; "
    "see https://peps.python.org/pep-0263/ for details"
)
_NULL_BYTES = "source code cannot contain null bytes"


_source_cache = {}  # stdin programs can be read only once


def read_source(kind, target):
    """The entry program's bytes (a file, stdin), or the text of -c (`kind` "code")."""
    if kind == "file":
        with open(target["path"], "rb") as f:
            return f.read()
    if kind == "stdin":
        if "stdin" not in _source_cache:
            _source_cache["stdin"] = sys.stdin.buffer.read()
        return _source_cache["stdin"]
    return target["code"]


def seekable(kind):
    """Whether the entry program's input can be read again (CPython reopens a file with its codec)."""
    if kind != "stdin":
        return True
    try:
        os.lseek(0, 0, os.SEEK_CUR)
        return True
    except OSError:
        return False


def without_first_line(data):
    """`-x`: the first line is skipped up to its newline, which stays (line numbers do not move)."""
    newline = data.find(b"\n")
    return data[newline:] if newline >= 0 else b""


def is_compiled(path, data, skip_first_line):
    return path.endswith(".pyc") or (not skip_first_line and data[:2] == MAGIC_NUMBER[:2])


def compiled_code(data):
    """The code object of a compiled file, or the error python3 raises for it."""
    if len(data) < 4:
        raise EOFError("EOF read where not expected")
    if data[:4] != MAGIC_NUMBER:
        raise RuntimeError("Bad magic number in .pyc file")
    if len(data) < 16:
        raise EOFError("EOF read where not expected")
    try:
        code = marshal.loads(data[16:])
    except (EOFError, ValueError, TypeError):
        code = None
    if type(code) is not type(compiled_code.__code__):
        raise RuntimeError("Bad code object in .pyc file")
    return code


def check(data, filename, seekable=True):
    """Raise the SyntaxError python3 raises before parsing `data`, if any. `seekable`: whether
    the bytes came from a file CPython could seek in (stdin may be a pipe)."""
    refused = _refusal(data, filename, seekable)
    if refused is not None:
        raise refused


def as_opened(data, filename, seekable):
    """What python3's opening of a script (a file, stdin) does before it parses it: a coding
    cookie it cannot apply to a pipe is refused (check), and one naming a codec other than UTF-8
    is looked up (io.open), which imports that codec's `encodings` module (latin-1's too), where
    compile() of the bytes would not. A codec that does not exist is compile()'s to report."""
    if not seekable:
        check(data, filename, seekable)
    body = data[len(_BOM):] if data.startswith(_BOM) else data
    cookie = coding_cookie.cookie(coding_cookie.head_lines(body))
    if cookie is not None and cookie[1] != "utf-8":
        try:
            codecs.lookup(cookie[1])
        except LookupError:
            pass


def decoded(data, filename, seekable=True):
    """The text python3 would parse from `data`, or the SyntaxError it raises before parsing."""
    check(data, filename, seekable)
    try:
        return decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        error = exc  # a codec failing after its first chunk: compile() words it as CPython does there
    compile(data, filename, "exec", dont_inherit=True)
    raise error


def decode_source(data):
    """importlib.util.decode_source(data): the same text and errors, without tokenize and re for
    the usual sources."""
    text = _decoded_without_tokenize(data)
    return text if text is not None else _importlib_decode_source(data)


def _decoded_without_tokenize(data):
    """decode_source(data) for the usual sources (no NUL; UTF-8, or the codec a coding cookie
    names, as decode_source applies it), without the import of tokenize and re that
    decode_source makes (SPEC §12: ~2 ms of every configured start; SPEC §2: the program's
    sys.modules); None for any other source. A lone CR in the first two lines is left to
    decode_source: its lines end at LF only, where a cookie could hide behind a CR."""
    if b"\0" in data:
        return None
    bom = data.startswith(_BOM)
    body = data[len(_BOM):] if bom else data
    head = body.split(b"\n", 2)[:2]
    if any(b"\r" in (line[:-1] if line.endswith(b"\r") else line) for line in head):
        return None
    cookie = coding_cookie.cookie(coding_cookie.head_lines(body))
    codec = "utf-8" if cookie is None else cookie[1]
    if bom and codec != "utf-8":
        return None
    try:
        text = body.decode(codec)
    except (UnicodeError, LookupError):
        return None
    return _io.IncrementalNewlineDecoder(None, True).decode(text)  # as decode_source translates


def _refusal(data, filename, seekable):
    bom = data.startswith(_BOM)
    body = data[len(_BOM):] if bom else data
    cookie = coding_cookie.cookie(coding_cookie.head_lines(body))
    name = cookie[1] if cookie else None
    if b"\0" not in data and name in (None, "utf-8"):
        try:
            data.decode("utf-8")
            return None  # the common case, at C speed
        except UnicodeDecodeError:
            pass
    lines = body.splitlines(keepends=True)  # CPython's universal newlines
    offset = len(_BOM) if bom else 0  # where the line ends in `data`
    for number, line in enumerate(lines, 1):
        offset += len(line)
        if cookie is not None and number == cookie[0]:
            problem = _cookie_problem(name, bom, data, offset, seekable)
            if problem is not None:
                return SyntaxError(problem)
            if name != "utf-8":
                return _null_bytes_decoded(data, filename, after=number - 1)
        head = line.split(b"\0", 1)[0]
        if not bom and (cookie is None or number < cookie[0]):  # no encoding yet: UTF-8, checked
            try:
                head.decode("utf-8")
            except UnicodeDecodeError as exc:
                return SyntaxError(_NON_UTF8 % (head[exc.start], filename, number))
        if len(head) < len(line):
            return _null_bytes(filename, number, head.decode("utf-8", "replace"))
    return None


def _cookie_problem(name, bom, data, offset, seekable):
    if bom:
        return None if name == "utf-8" else "encoding problem: %s with BOM" % name
    if name == "utf-8":
        return None
    if not seekable:  # CPython seeks back to reopen the file with the codec: a pipe refuses
        return "encoding problem: %s" % name
    try:
        if not codecs.lookup(name)._is_text_encoding:  # io.open() refuses it
            return "encoding problem: %s" % name
        decoder = codecs.getincrementaldecoder(name)()
        decoder.decode(data[max(offset - 1, 0):offset - 1 + _FIRST_CHUNK])
    except (LookupError, UnicodeDecodeError):
        return "encoding problem: %s" % name
    return None


def _null_bytes_decoded(data, filename, after):
    """The NUL check on lines after a cookie's line: CPython reads them through the codec."""
    try:
        text = decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None  # compile() reports it
    if "\0" not in text:
        return None
    for number, line in enumerate(text.split("\n")[after:], after + 1):
        if "\0" in line:
            return _null_bytes(filename, number, line.split("\0", 1)[0])
    return None


def _null_bytes(filename, number, text):
    return SyntaxError(_NULL_BYTES, (filename, number, 0, text, number, 0))
