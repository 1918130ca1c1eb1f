"""Checkpoints of a planned program (SPEC §3.1, §4.2): the bridge selects them on the program as
it runs — the plan's rewritten source, valid Python, where each AI block is a runtime call — and
reports them where the user wrote them. One rule (selection.py), whatever the source holds.

Lines never move (a block of N lines renders on the same N lines), nor does a column before a
block's call; a column after a call, on the call's last line, moves by the difference between
the call's width and the block's (a call is padded to the block's width, but a block shorter
than its call gets a longer one). A Rendering is selection.Columns of the rewritten text with
its positions mapped back: `span` and `segment` answer in the user's source (its text verbatim,
line breaks included), and `generated` tells the call that stands for a statement block, an
expression statement the frontend wrote, which is never a checkpoint. The calls are written as
docs/protocol.md says ("What the rewritten program calls"): `NAME.block(N)`, or
`(await NAME.ablock(N))()` inside `async def`.

`checkpoints_of` is what `--explain` shows (the `checkpoints` request, answered before `run`).
"""

from __future__ import annotations

from ..preparation import syntax_tree as ast  # ast's functions over _ast's classes, without importing ast.py
from .selection import Columns, split_lines

__all__ = ["Rendering"]


class Rendering(Columns):
    """Columns of `rewritten` (the plan's program) that answer in `source` (the user's)."""

    def __init__(self, rewritten: str, source: str, plan: dict):
        super().__init__(rewritten)
        self.source = source
        self.source_starts = _line_starts(source)  # where each line of `source` starts
        # line -> [(column where a call ends, column where its block ends)], in order
        self._moves: dict[int, list[tuple[int, int]]] = {}
        self._statement_blocks = set()
        self._last = None, None
        for block in plan.get("blocks") or ():
            span = block["span"]
            end = self._call_end(plan["runtimeName"], block)
            if end is not None:
                self._moves.setdefault(span["end_line"], []).append((end, span["end_column"]))
            if block.get("kind") == "statement":
                self._statement_blocks.add((span["line"], span["column"], span["end_line"], span["end_column"]))
        for moves in self._moves.values():
            moves.sort()

    def span(self, node) -> dict:
        span = super().span(node)
        span["column"] = self._column(span["line"], span["column"])
        span["end_column"] = self._column(span["end_line"], span["end_column"])
        self._last = node, span  # selection asks for the statement's text next
        return span

    def segment(self, node) -> str:
        last, span = self._last
        if last is not node:
            span = self.span(node)
        start = self.source_starts[span["line"] - 1] + span["column"]
        return self.source[start:self.source_starts[span["end_line"] - 1] + span["end_column"]]

    def generated(self, node) -> bool:
        """Whether the statement is a statement block's call (its span is the block's)."""
        if type(node) is not ast.Expr or not self._statement_blocks:
            return False
        span = self.span(node)
        return (span["line"], span["column"], span["end_line"], span["end_column"]) in self._statement_blocks

    def _column(self, line: int, column: int) -> int:
        """A column of the rewritten `line` as a column of the user's source."""
        for call_end, block_end in reversed(self._moves.get(line, ())):
            if call_end <= column:
                return column - call_end + block_end
        return column

    def _call_end(self, runtime: str, block: dict) -> int | None:
        """The column where the block's call ends, on the block's last line (None: not found)."""
        span, is_async = block["span"], block.get("is_async")
        opening = ("(await %s.ablock(%d" if is_async else "%s.block(%d") % (runtime, block["index"])
        closing = "))()" if is_async else ")"
        if not 0 < span["line"] <= span["end_line"] <= len(self.lines):
            return None
        line = self.lines[span["line"] - 1]
        at = line.find(opening)  # the first: the runtime's name is in no other text, and blocks come in order
        if at < 0:
            return None
        if span["end_line"] == span["line"]:
            at += len(opening)
        else:  # the call's last line holds only its padding and its closing
            line, at = self.lines[span["end_line"] - 1], 0
        close = line.find(closing, at)
        return None if close < 0 else close + len(closing)


def _line_starts(text: str) -> list[int]:
    """Where each line of `text` starts, lines broken as CPython breaks them."""
    starts, at = [0], 0
    if "\r" not in text:
        for line in text.split("\n"):
            at += len(line) + 1
            starts.append(at)
        return starts
    for line in split_lines(text)[:-1]:
        at += len(line)
        at += 2 if text.startswith("\r\n", at) else 1
        starts.append(at)
    return starts

