"""What `complete` skips when the failed checkpoint is a compound statement (SPEC §4.2).

A compound statement is a checkpoint only at the top level of the entry module, and the bodies of
`with` and `try` statements carry no checkpoints of their own (user handlers see exceptions
first), so a failure inside such a body, or in a loop body's `with`, is decided at the enclosing
top-level statement. `complete` there means what the rule says, "the statement counts as done":
the rest of its body does not run, and neither do a loop's remaining iterations. The words here
say so, once, for both readers: the model's request (`recovery.complete_skips`), so it can choose
`reraise` instead, and the user's notice on stderr (src/run/recovery-notice.ts prints it).
"""

from __future__ import annotations

_LOOPS = ("for", "while")
_NAMED = ("def", "class")


def skipped_by_complete(statement: str, first_line: int, failed_line: int) -> str | None:
    """What completing the compound checkpoint `statement` (starting at `first_line`) skips, its
    failure having passed `failed_line` of its frame; None when the keyword is not recognised."""
    keyword, name = _header(statement)
    if keyword is None:
        return None
    at = f"the {keyword} statement of line {first_line}"
    if keyword in _NAMED:
        return f"the rest of {at}: {name or 'its name'} stays unbound"
    if failed_line <= first_line:
        whole = f"all of {at} (it failed in its first line)"
        return whole if keyword not in _LOOPS else whole.replace("statement", "loop")
    if keyword in _LOOPS:
        return f"the rest of the {keyword} loop of line {first_line}, its remaining iterations included"
    if keyword == "with":
        return f"the rest of the with body of line {first_line}"
    return f"the rest of {at}"


def _header(statement: str) -> tuple[str | None, str | None]:
    """The compound statement's keyword (`async` dropped, decorators skipped) and, for `def` and
    `class`, the name it binds."""
    for line in statement.split("\n"):
        words = line.strip().split()
        if not words or words[0].startswith("@") or words[0].startswith("#"):
            continue
        if words[0] == "async" and len(words) > 1:
            words = words[1:]
        keyword = _word(words[0])
        if keyword not in ("for", "while", "with", "if", "try", "match", "def", "class"):
            return None, None
        name = _word(words[1]) if keyword in _NAMED and len(words) > 1 else None
        return keyword, name or None
    return None, None


def _word(text: str) -> str:
    """The identifier at the start of `text` (`try:` → `try`, `f(x):` → `f`)."""
    end = 0
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[:end]
