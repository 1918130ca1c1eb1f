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
them, a group at a time, between the compile requests it answers first (Ahead, server.py); the
request with the plan then lists only what is left, or what the program has otherwise than the
source, and numbers the lot.
"""

from __future__ import annotations

import gc
from itertools import accumulate

from .. import pycompat
from .rendering import Rendering
from .selection import checkpoint_id, selected_sites
from .statement_index import index_statements

__all__ = ["Ahead", "checkpoints_of"]

PART = 64 * 1024  # characters of a part, about: its tree is some 8 MB
_CLAUSES = ("else", "elif", "except", "finally")
_SHOWN = ("span", "statement", "target", "retry_allowed")  # a CheckpointInfo besides its id


def checkpoints_of(source: str, filename: str, plan: dict | None, *, entry: bool, name: str, ahead: Ahead | None = None,
                   part: int = PART) -> list[dict]:
    """The checkpoints of `source` as a run would instrument it (with `plan`, the frontend's Plan,
    when it has AI blocks): CheckpointInfo dicts, in the source's positions. `ahead`: the parts of
    the same source listed before, kept where the program has the source's lines."""
    plan = plan or {}
    program = source if plan.get("rewritten") is None else plan["rewritten"]
    rendering = Rendering(program, source, plan)
    lines = rendering.lines
    listed = [] if ahead is None or (ahead.source, ahead.entry) != (source, entry) else [
        (first, last, found) for first, last, found in ahead.listed if lines[first - 1:last] == ahead.rendering.lines[first - 1:last]]
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
                    listed.append((first, last, _selected(tree, first, rendering, entry)))
                    del tree  # before the next part is parsed
        except _Unparsed:  # a boundary of `ahead` that the program does not have; or a parser flag
            if ahead is None and part > len(program):  # of an earlier part (`from __future__`)
                raise SyntaxError(f"{filename} does not parse") from None
            return checkpoints_of(source, filename, plan, entry=entry, name=name, part=len(program) + 1)
    listed.sort(key=lambda item: item[0])
    every = [info for _, _, found in listed for info in found]
    return [{"id": checkpoint_id(name, number), **info} for number, info in enumerate(every, 1)]


class Ahead:
    """The windows of a source that compile as they stand (`parts`: [first line, last line] of
    whole top-level statements) listed as the source has them, a group of consecutive ones of
    about PART characters per `step()`. A group that does not parse after all (the frontend's
    windows are its own reading) leaves the window of the error to the plan, and its others are
    tried again."""

    def __init__(self, source: str, filename: str, entry: bool, parts: list, part: int = PART):
        self.source, self.filename, self.entry = source, filename, entry
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
            self.listed.append((first, last, _selected(tree, first, self.rendering, self.entry)))


def _selected(tree, first: int, rendering: Rendering, entry: bool) -> list[dict]:
    """The checkpoints of a part whose first line is `first`, without ids."""
    sites = index_statements(tree)
    if first > 1:  # the module's docstring is the first part's
        for site in sites:
            if site.docstring and site.scope_node is tree:
                site.docstring = False
    return [{key: info[key] for key in _SHOWN} for _, info in selected_sites(sites, "", entry=entry, rendering=rendering)]


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
