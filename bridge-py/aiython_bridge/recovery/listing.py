"""The checkpoints `--explain` lists (SPEC §3.4, §4.2): what a run would instrument in a source,
without instrumenting it — the `checkpoints` request, answered before `run`.

The rule is selection.py's, on the program as it runs (the plan's rewritten source, positions
mapped back by rendering.Rendering). Only the driver differs from a run's: a run needs the whole
tree to compile it, a listing does not, so the program is parsed in parts of whole top-level
statements, each tree dropped once its checkpoints are read. That bounds the memory of a large
file (CPython's AST of a 4 MB program holds some 500 MB of objects; SPEC §12: under 300 MB), and
with the cyclic collector paused (it would walk every node of every part again and again) halves
the time. A part starts at a line that begins at column 0 with code other than a clause keyword
(`else`, `elif`, `except`, `finally`); one cut inside a statement (a string, brackets, a
backslash, a decorator) does not parse, and then grows until it does.

Ahead: while the frontend plans a large file, the bridge is mostly idle, and most of the file
will run as it is. So `--explain` sends the frontend's windows that compile as they stand (whole
top-level statements, no block in them) as soon as the frontend knows them, and the bridge lists
them, a group at a time, between the compile requests it answers first (Ahead, pre_run_requests.py); the
request with the plan then lists only what is left, or what the program has otherwise than the
source, and numbers the lot.

The server asks for JSON (`as_json`): each part's checkpoints are encoded as soon as they are
selected, so a large file holds their text, not a dict per checkpoint and its span (some 600
bytes each, 180,000 of them at 16 MB), and the answer is that text joined.
"""

from __future__ import annotations

import gc
from itertools import accumulate

from .. import pycompat
from ..json_codec import encode_many
from .rendering import Rendering
from .selection import checkpoint_id, selected_sites, split_lines
from .statement_index import index_statements

__all__ = ["Ahead", "checkpoints_of"]

PART = 64 * 1024  # characters of a part, about: its tree is some 8 MB
_CLAUSES = ("else", "elif", "except", "finally")
_SHOWN = ("span", "statement", "target", "retry_allowed")  # a CheckpointInfo besides its id


def checkpoints_of(source: str, filename: str, plan: dict | None, *, entry: bool, name: str, ahead: Ahead | None = None,
                   part: int = PART, as_json: bool = False) -> list:
    """The checkpoints of `source` as a run would instrument it (with `plan`, the frontend's Plan,
    when it has AI blocks): CheckpointInfo dicts, in the source's positions; with `as_json`, the
    JSON text of their list, in pieces (a large list is joined once, where it is sent). `ahead`:
    the parts of the same source listed before (as JSON if `as_json`), kept where the program has
    the source's lines; it is spent."""
    plan = plan or {}
    if ahead is not None and (ahead.source, ahead.entry, ahead.as_json) == (source, entry, as_json):
        source, listed_ahead = ahead.source, ahead.listed  # one copy of the source, not two
        ahead.rendering = None  # its lines are the source's, read below from the source itself
    else:
        listed_ahead = []
    program = source if plan.get("rewritten") is None else plan["rewritten"]
    rendering = Rendering(program, source, plan)
    lines, starts = rendering.lines, rendering.source_starts
    listed = [(first, last, found) for first, last, found in listed_ahead
              if _lines_of(source[starts[first - 1]:starts[last]])[:last - first + 1] == lines[first - 1:last]]
    listed.sort(key=lambda item: item[0])
    gaps, at = [], 1
    for first, last, _ in listed + [(len(lines) + 1, len(lines), None)]:
        if first > at:
            gaps.append((at, first))
        at = last + 1
    offsets = list(accumulate((len(line) + 1 for line in lines), initial=0))
    with _collector_paused():
        try:
            for start, stop in gaps:
                for first, last, tree in _parts(lines, offsets, filename, part, start, stop):
                    listed.append((first, last, _selected(tree, first, rendering, entry, as_json)))
                    del tree  # before the next part is parsed
        except _Unparsed:  # a boundary of `ahead` that the program does not have; or a parser flag
            if ahead is None and part > len(program):  # of an earlier part (`from __future__`)
                raise SyntaxError(f"{filename} does not parse") from None
            return checkpoints_of(source, filename, plan, entry=entry, name=name, part=len(program) + 1, as_json=as_json)
    listed.sort(key=lambda item: item[0])
    every = [info for _, _, found in listed for info in found]
    del listed
    if as_json:  # each `info` is an object's text without its opening brace
        pieces = ["["]
        for number, (id, info) in enumerate(zip(encode_many([checkpoint_id(name, n) for n in range(1, len(every) + 1)]), every)):
            pieces += (',{"id":' if number else '{"id":', id, ",", info)
        pieces.append("]")
        return pieces
    return [{"id": checkpoint_id(name, number), **info} for number, info in enumerate(every, 1)]


class Ahead:
    """The windows of a source that compile as they stand (`parts`: [first line, last line] of
    whole top-level statements) listed as the source has them, a group of consecutive ones of
    about PART characters per `step()`. A group that does not parse after all (the frontend's
    windows are its own reading) leaves the window of the error to the plan, and its others are
    tried again."""

    def __init__(self, source: str, filename: str, entry: bool, parts: list, part: int = PART, as_json: bool = False):
        self.source, self.filename, self.entry, self.as_json = source, filename, entry, as_json
        self.rendering = Rendering(source, source, {})
        self.listed: list[tuple[int, int, list]] = []  # (first line, last line, checkpoints)
        self._groups = []
        group, size = [], 0
        for first, last in parts:
            if group and (size >= part or first != group[-1][1] + 1):
                self._groups.append(group)
                group, size = [], 0
            group.append((first, last))
            size += sum(len(line) for line in self.rendering.lines[first - 1:last])
        if group:
            self._groups.append(group)
        self._groups.reverse()  # popped from the end: in source order

    @property
    def done(self) -> bool:
        return not self._groups

    def step(self) -> None:
        """Lists the next group of windows."""
        group = self._groups.pop()
        first, last = group[0][0], group[-1][1]
        lines = self.rendering.lines
        with _collector_paused():
            try:
                tree = pycompat.parse_ast("\n" * (first - 1) + "\n".join(lines[first - 1:last]), self.filename)
            except (SyntaxError, ValueError) as error:
                # The window the error is in is left to the plan; those around it are tried again.
                at = next((n for n, (a, b) in enumerate(group) if a <= (error.lineno or 0) <= b), len(group) // 2)
                self._groups += [part for part in (group[at + 1:], group[:at]) if part]
                return
            self.listed.append((first, last, _selected(tree, first, self.rendering, self.entry, self.as_json)))


def _selected(tree, first: int, rendering: Rendering, entry: bool, as_json: bool = False) -> list:
    """The checkpoints of a part whose first line is `first`, without ids: dicts, or with
    `as_json` each one's JSON text without its opening brace."""
    sites = index_statements(tree)
    if first > 1:  # the module's docstring is the first part's
        for site in sites:
            if site.docstring and site.scope_node is tree:
                site.docstring = False
    found = [{key: info[key] for key in _SHOWN} for _, info in selected_sites(sites, "", entry=entry, rendering=rendering)]
    return [text[1:] for text in encode_many(found)] if as_json else found


def _lines_of(text: str) -> list[str]:
    """The lines of `text` as selection.Columns splits them."""
    return text.split("\n") if "\r" not in text else split_lines(text)


class _collector_paused:
    def __enter__(self):
        self._was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info):
        if self._was:
            gc.enable()
        return False


class _Unparsed(Exception):
    """No part from here to where the range stops parses alone."""


def _parts(lines: list[str], offsets: list[int], filename: str, part: int, start: int, stop: int):
    """(first line, last line, tree) of consecutive parts of lines start … stop - 1 of the program
    of `lines` (a range of whole top-level statements; `offsets[n]`: the characters before line
    n + 1), each parsed with its lines in place (blank lines before it), about `part` characters
    each."""
    starts = [number for number in range(start + 1, stop) if _may_start(lines[number - 1])] + [stop]
    first, k = start, 0
    while first < stop:
        while starts[k] <= first:
            k += 1
        size = part
        while True:
            end_k = k
            while starts[end_k] < stop and offsets[starts[end_k] - 1] - offsets[first - 1] < size:
                end_k += 1
            end = starts[end_k]
            try:
                tree = pycompat.parse_ast("\n" * (first - 1) + "\n".join(lines[first - 1:end - 1]), filename)
                break
            except (SyntaxError, ValueError):  # cut inside a statement: a part twice as large
                if end >= stop:
                    raise _Unparsed() from None
                size = 2 * (offsets[end - 1] - offsets[first - 1]) + 1
        yield first, end - 1, tree
        first, k, tree = end, end_k, None


def _may_start(line: str) -> bool:
    """Whether a top-level statement may start at `line`: code at column 0, not a clause of the
    compound statement before it."""
    if not line or line[0] in " \t\f\r#":
        return False
    for keyword in _CLAUSES:
        if line.startswith(keyword):
            after = line[len(keyword):len(keyword) + 1]
            if not (after.isalnum() or after == "_"):
                return False
    return True
