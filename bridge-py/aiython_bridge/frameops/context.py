"""Code context (SPEC §5.1): the source around a frame's current line, for requests and `get_frame_code`.

At module level it is a window of lines before the line and the rest of the top-level statement
that holds it, never a line after that statement (SPEC §11.1): what is appended to a script, or
edited below the statement, leaves the request of a block above unchanged, so `--replay=fill`
sends only the requests of what changed.

A block in a loop asks for the same context at every pause: the answer for a code object, line and
project root is remembered with the source lines it was cut from (the code object is held, so its
id stays its own while remembered), and made again only when linecache holds other lines for the
file (a checkcache that saw it change, the program's own linecache use). The memo is bounded; each
caller gets its own copy of the dict.
"""

from __future__ import annotations

# At the top, not at the first pause: pauses/pause.py (and so this) is loaded while the host
# plans a program with blocks, and linecache's import (tokenize's patterns) would otherwise be
# ~3 ms of the first block. The program would find it in sys.modules from the first pause on anyway.
import linecache

from .. import pycompat
from ..paths import display_path

__all__ = [
    "CODE_CONTEXT_CAP", "MAX_REMEMBERED", "WHOLE_SCOPE_LIMIT", "WINDOW_AFTER", "WINDOW_BEFORE",
    "code_context",
]

CODE_CONTEXT_CAP = 12_000  # SPEC §5.1 hard cap of code context
WHOLE_SCOPE_LIMIT = 4096  # SPEC §5.1: the enclosing function/class whole if at most this
WINDOW_BEFORE = 25  # lines shown before the current line when windowing
WINDOW_AFTER = 15
MAX_REMEMBERED = 128
_remembered: dict = {}  # (id(code), lineno, project_root) -> (code, lines it was cut from, result)


def code_context(frame, lineno: int, *, project_root: str | None = None) -> dict:
    """_code_context's answer for this frame's code, made once per code, line and source text."""
    code = frame.f_code
    lines = linecache.getlines(code.co_filename, frame.f_globals)
    # By identity: equal code objects of two files compare equal (co_filename is not compared).
    key = (id(code), lineno, project_root)
    found = _remembered.get(key)
    if found is None or found[0] is not code or found[1] is not lines:
        found = (code, lines, _code_context(code, lines, lineno, project_root))
        if len(_remembered) >= MAX_REMEMBERED:
            _remembered.clear()
        _remembered[key] = found
    return dict(found[2])


def _code_context(code, lines: list, lineno: int, project_root: str | None) -> dict:
    """Source around ``lineno`` (SPEC §5.1): the enclosing function or class whole if it is at
    most WHOLE_SCOPE_LIMIT characters, else a window of lines around ``lineno`` inside it (at
    module level always a window, which ends with the top-level statement holding ``lineno``:
    `complete` then says it starts at the module's first line); never more than CODE_CONTEXT_CAP
    characters. Read through linecache by the code's file name, which shows the original program
    text."""
    kind = "module" if code.co_name == "<module>" else ("function" if code.co_flags & pycompat.CO_OPTIMIZED else "class")
    result = {"file": display_path(code.co_filename, project_root), "kind": kind, "line": lineno,
              "start_line": 0, "end_line": 0, "source": "", "complete": False}
    if not lines:
        result["note"] = "source not available"
        return result
    count = len(lines)
    if kind == "module":
        first, last = 1, _statement_end(lines, max(1, min(lineno, count)))
    else:
        first = max(1, min(code.co_firstlineno, count))
        last = max(first, min(_last_line(code), count))
        text = "".join(lines[first - 1 : last])
        if len(text) <= WHOLE_SCOPE_LIMIT:
            result.update(start_line=first, end_line=last, source=text, complete=True)
            return result
    focus = max(first, min(lineno, last))
    lo, hi = max(first, focus - WINDOW_BEFORE), min(last, focus + WINDOW_AFTER)
    while hi > lo and sum(len(lines[i - 1]) for i in range(lo, hi + 1)) > CODE_CONTEXT_CAP:
        if hi - focus >= focus - lo:
            hi -= 1
        else:
            lo += 1
    text = "".join(lines[lo - 1 : hi])[:CODE_CONTEXT_CAP]
    result.update(start_line=lo, end_line=hi, source=text, complete=(lo, hi) == (first, last))
    return result


_CLAUSES = ("else", "elif", "except", "finally")


def _statement_end(lines: list, lineno: int) -> int:
    """The last line of the top-level statement that starts at ``lineno``: the lines after it that
    are inside its brackets or strings, follow a backslash, are indented, or begin a clause of the
    same statement (``else:``…). Blank lines and comments after it are not part of it. Read line by
    line, since the original text of a program with AI blocks does not parse (an unclosed quote in
    a line of prose ends with its line)."""
    depth, triple = 0, None
    last = lineno
    for index in range(lineno - 1, len(lines)):
        text = lines[index]
        if index >= lineno and not (depth or triple or lines[index - 1].rstrip("\r\n").endswith("\\")):
            stripped = text.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if not (text[0] in " \t" or _is_clause(text)):
                break
        last = index + 1
        depth, triple = _scan(text, depth, triple)
    return last


def _scan(text: str, depth: int, triple):
    """Bracket depth and the open triple quote (or None) after one line, from those before it."""
    i, n = 0, len(text)
    while i < n:
        if triple is not None:
            end = text.find(triple, i)
            if end < 0:
                return depth, triple
            i, triple = end + 3, None
            continue
        ch = text[i]
        if ch == "#":
            break
        if ch in "\"'":
            if text.startswith(ch * 3, i):
                i, triple = i + 3, ch * 3
                continue
            i += 1
            while i < n and text[i] != ch:
                i += 2 if text[i] == "\\" else 1
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        i += 1
    return depth, triple


def _is_clause(text: str) -> bool:
    for word in _CLAUSES:
        if text.startswith(word) and (len(text) == len(word) or not (text[len(word)].isalnum() or text[len(word)] == "_")):
            return True
    return False


def _last_line(code) -> int:
    last = code.co_firstlineno
    for _, end, _, _ in code.co_positions():
        if end is not None and end > last:
            last = end
    for const in code.co_consts:
        if type(const) is type(code):
            last = max(last, _last_line(const))
    return last
