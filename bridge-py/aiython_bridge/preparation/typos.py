"""A plan's typos (SPEC §4.3; README, "A typo stays a SyntaxError"): a source whose blocks include
one that reads as mistyped Python rather than natural language (the frontend's rule, the plan's
`typos`) is refused with CPython's own SyntaxError for that span, exactly as python3 words it,
even below a line of natural language python3 would have stopped at first. Loaded only when a
plan has typos.
"""

from __future__ import annotations

from aiython_bridge.program import coding_cookie


def raise_first_typo(plan, path, text) -> None:
    """CPython's own SyntaxError for the plan's first block that reads as mistyped Python: the
    rewritten program (valid Python, same lines) with that block's lines put back as written is
    compiled, so the error is exactly the one python3 gives for the typo, even below a line of
    natural language that python3 would have stopped at first."""
    typos = plan.get("typos") or ()
    if not typos or plan.get("rewritten") is None:
        return
    spans = [block["span"] for block in plan.get("blocks") or () if block.get("index") in typos]
    if not spans:
        return
    first = min(spans, key=lambda span: (span["line"], span["column"]))
    original, rewritten = _lines(text), _lines(plan["rewritten"])
    if len(original) == len(rewritten):
        start, end = first["line"] - 1, first["end_line"]
        _compile_as_read("".join(rewritten[:start] + original[start:end] + rewritten[end:]), path)
    _compile_as_read(text, path)  # not reached but for a bug: CPython's first error


def _compile_as_read(text, path):
    """compile() of `text` as python3 reads its file: bytes in the coding cookie's codec, so that
    a SyntaxError's line, which CPython reads back from the file with that codec, and its caret
    come out as under python3 (from a str they would be read as UTF-8)."""
    found = coding_cookie.cookie(coding_cookie.head_lines(text[:4096].encode("utf-8", "surrogatepass")))
    try:
        data = text.encode(found[1] if found else "utf-8", "surrogatepass" if not found else "strict")
    except (LookupError, UnicodeError):
        data = text
    compile(data, path, "exec", dont_inherit=True)


def _lines(text):
    """text's lines with their ends, split where CPython splits them (\n, \r\n, \r only)."""
    lines, pending = [], ""
    for piece in text.splitlines(True):
        pending += piece
        if piece.endswith(("\n", "\r")):
            lines.append(pending)
            pending = ""
    if pending:
        lines.append(pending)
    return lines
