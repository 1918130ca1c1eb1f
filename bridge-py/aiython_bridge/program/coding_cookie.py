"""A source's coding cookie (PEP 263), read as CPython's tokenizer reads it: on line 1 or 2, the
second only behind a blank or comment line, without the re module (SPEC §2: the program's
sys.modules) and without splitting the whole source into lines.
"""

__all__ = ["blank", "cookie", "cookie_name", "head_lines", "normal_name"]

_NAME_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")


def cookie_name(line):
    """The name PEP 263's pattern `^[ \\t\\f]*#.*?coding[:=][ \\t]*([-\\w.]+)` (ASCII) finds in
    `line`, or None: read as CPython's tokenizer reads it, without the re module."""
    line = line.split(b"\n", 1)[0]  # the pattern's `.` stops at a line feed
    if not line.lstrip(b" \t\f").startswith(b"#"):
        return None
    at = line.find(b"coding")
    while at >= 0:
        start = at + 6
        if line[start:start + 1] in (b":", b"="):
            start += 1
            while line[start:start + 1] in (b" ", b"\t"):
                start += 1
            end = start
            while end < len(line) and line[end] in _NAME_CHARS:
                end += 1
            if end > start:
                return line[start:end]
        at = line.find(b"coding", at + 1)
    return None


def blank(line):
    """Whether `line` is blank or a comment: `^[ \\t\\f]*(?:[#\\r\\n]|$)`."""
    rest = line.lstrip(b" \t\f")
    return rest == b"" or rest[:1] in (b"#", b"\r", b"\n")


def head_lines(body):
    """body.splitlines(keepends=True)[:2], the lines a cookie may be on, without splitting the
    whole source (a large program's start would pay for it)."""
    lines, start = [], 0
    while len(lines) < 2 and start < len(body):
        feed = body.find(b"\n", start)
        ends = [at for at in (feed, body.find(b"\r", start, len(body) if feed < 0 else feed)) if at >= 0]
        if not ends:
            lines.append(body[start:])
            break
        end = min(ends) + 1
        if body[end - 1:end + 1] == b"\r\n":
            end += 1
        lines.append(body[start:end])
        start = end
    return lines


def cookie(lines):
    """(line number, CPython's name) of the coding cookie on line 1 or 2, or None."""
    if not any(b"coding" in line for line in lines[:2]):
        return None  # no cookie without the word: the common case, with no pattern compiled
    for number, line in enumerate(lines[:2], 1):
        name = cookie_name(line)
        if name is not None:
            return number, normal_name(name.decode("ascii"))
        if not blank(line):
            return None  # a line of code: no cookie after it
    return None


def normal_name(name):
    """Parser/tokenizer.c getnormal_name: how CPython spells utf-8 and latin-1 cookies."""
    enc = name[:12].lower().replace("_", "-")
    if enc == "utf-8" or enc.startswith("utf-8-"):
        return "utf-8"
    if enc in ("latin-1", "iso-8859-1", "iso-latin-1") or enc.startswith(("latin-1-", "iso-8859-1-", "iso-latin-1-")):
        return "iso-8859-1"
    return name
