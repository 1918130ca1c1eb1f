"""Which statements are checkpoints (SPEC §4.2), read from a module's AST: over the statement
index (statement_index.py: every statement with its scope, whether it is top level, in a user
`try`/`with` body, a docstring), the rules of suitability, the try/with body ranges, spans in code
points, the one name a statement assigns and its annotation. The one copy of the rule: every
source is checkpointed by it, as it runs — a source CPython parses as it is, a planned one as its
rewritten program, with positions mapped back to the user's source (rendering.py) — and
`--explain` shows what it selects. instrument.instrument_selected selects and instruments in one
pass (preparation/prepare.py, program_code.py).
"""

from __future__ import annotations

from ..preparation import syntax_tree as ast  # ast's functions over _ast's classes, without importing ast.py
from .statement_index import NEVER, PROTECTING, SCOPES, SIMPLE, Site, bodies, body_range, index_statements

__all__ = [
    "Columns", "annotation_of", "checkpoint_id", "merged_ranges", "protected_ranges", "select_checkpoints",
    "selected_sites", "single_target", "split_lines", "suitable",
]


def split_lines(source):
    """re.split(r"\r\n|\r|\n", source), without importing re (SPEC §2: the program's sys.modules)."""
    return source.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def protected_ranges(tree: ast.Module) -> list[list[int]]:
    """[start, end] line ranges of user try and with bodies, merged and sorted."""
    ranges = []
    pending = list(tree.body)
    while pending:  # statements only: a try or with is never inside an expression
        node = pending.pop()
        if isinstance(node, PROTECTING) and node.body:
            ranges.append(body_range(node.body))
        for inner, _ in bodies(node):
            pending.extend(inner)
    return merged_ranges(ranges)


def merged_ranges(ranges: list) -> list[list[int]]:
    """Line ranges sorted, with overlapping and adjacent ones merged."""
    ranges.sort()
    merged: list[list[int]] = []
    for start, end in ranges:
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


class Columns:
    """Converts the AST's UTF-8 byte columns to the plan's code-point columns."""

    def __init__(self, source: str):
        # CPython's line breaks; a source with no "\r" (most) splits the same on "\n" alone, faster
        self.lines = source.split("\n") if "\r" not in source else split_lines(source)

    def char(self, lineno: int, byte_col: int) -> int:
        if not 0 < lineno <= len(self.lines):
            return byte_col
        line = self.lines[lineno - 1]
        if line.isascii():
            return byte_col
        return len(line.encode("utf-8")[:byte_col].decode("utf-8", "replace"))

    def start(self, node) -> tuple[int, int]:
        """(line, byte column) where the statement starts: a decorated definition at its first
        decorator's `@` (the decorators are part of the statement, and run first)."""
        decorators = getattr(node, "decorator_list", None)
        if not decorators:
            return node.lineno, node.col_offset
        first = decorators[0]
        line = self.lines[first.lineno - 1].encode("utf-8")
        return first.lineno, line.rfind(b"@", 0, first.col_offset + 1)

    def segment(self, node) -> str:
        (first, start), last = self.start(node), node.end_lineno or node.lineno
        if first == last:
            line = self.lines[first - 1]
            if line.isascii():
                return line[start:node.end_col_offset]
            return line.encode("utf-8")[start:node.end_col_offset].decode("utf-8", "replace")
        parts = [self.lines[first - 1].encode("utf-8")[start:].decode("utf-8", "replace")]
        parts += self.lines[first:last - 1]
        parts.append(self.lines[last - 1].encode("utf-8")[:node.end_col_offset].decode("utf-8", "replace"))
        return "\n".join(parts)

    def span(self, node) -> dict:
        (line, start), end_line = self.start(node), node.end_lineno or node.lineno
        return {"line": line, "column": self.char(line, start),
                "end_line": end_line, "end_column": self.char(end_line, node.end_col_offset or 0)}


def single_target(node) -> str | None:
    """The one name a statement assigns (`x = …`, `x: T = …`, `x += …`), else None.

    `(x): T = …` (a parenthesised, "not simple" target) assigns x without making it local to the
    function, so it has no target here: binding a completed value to it would make it local."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.simple:
        return node.target.id
    return None


def annotation_of(name: str, site: Site, scopes: dict | None = None) -> str | None:
    """The annotation of `name` for the statement (SPEC §3.2): its own, else the latest one
    before it in its scope — an annotated assignment `name: T …`, or the enclosing function's
    parameter `name: T`. `scopes` keeps each scope's annotations between calls (one dict per tree)."""
    if isinstance(site.node, ast.AnnAssign):
        return ast.unparse(site.node.annotation)
    here = (site.node.lineno, site.node.col_offset)
    found = None
    for position, annotation in _scope_annotations(name, site.scope_node, {} if scopes is None else scopes):
        if position >= here:
            break
        found = annotation
    return ast.unparse(found) if found is not None else None


def _scope_annotations(name: str, scope_node, scopes: dict):
    """((line, column), annotation node) of `name` in the scope, in source order."""
    if isinstance(scope_node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        arguments = scope_node.args
        every = arguments.posonlyargs + arguments.args + [arguments.vararg] + arguments.kwonlyargs + [arguments.kwarg]
        for argument in every:
            if argument is not None and argument.arg == name and argument.annotation is not None:
                yield (scope_node.lineno, scope_node.col_offset), argument.annotation
    by_name = scopes.get(id(scope_node))
    if by_name is None:
        by_name = scopes[id(scope_node)] = _annotated_names(scope_node)
    yield from by_name.get(name, ())


def _annotated_names(scope_node) -> dict:
    """name → [((line, column), annotation node)] of the scope's annotated assignments, sorted."""
    found: dict = {}
    pending = list(scope_node.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.simple:
            found.setdefault(node.target.id, []).append(((node.lineno, node.col_offset), node.annotation))
        if not isinstance(node, SCOPES):
            for inner, _ in bodies(node):
                pending.extend(inner)
    for entries in found.values():
        entries.sort(key=lambda item: item[0])
    return found


def suitable(site: Site, *, entry: bool) -> bool:
    node = site.node
    if site.docstring or site.protected or isinstance(node, NEVER):
        return False
    if isinstance(node, ast.ImportFrom) and node.module == "__future__":
        return False
    if site.top_level:
        return entry
    return isinstance(node, SIMPLE)


def select_checkpoints(tree: ast.Module, source: str, *, entry: bool, name: str = "program") -> list[dict]:
    """A checkpoint table by SPEC §4.2's rules: a CheckpointInfo (docs/protocol.md) per checkpoint."""
    return [info for _, info in selected_sites(index_statements(tree), source, entry=entry, name=name)]


def selected_sites(sites: list[Site], source: str, *, entry: bool, name: str = "program",
                   rendering=None) -> list[tuple[Site, dict]]:
    """The checkpoints among `sites` (index_statements' list of the tree of `source`), each with
    its table entry. With `rendering` (rendering.Rendering), `source` is a plan's rewritten
    program: spans and statement texts are the user's source's, and a statement block's call is
    no checkpoint."""
    columns = Columns(source) if rendering is None else rendering
    generated = None if rendering is None else rendering.generated
    chosen = []
    scopes = _annotations_by_scope(sites)
    for site in sites:
        node = site.node
        if not suitable(site, entry=entry) or (generated is not None and generated(node)):
            continue
        compound = not isinstance(node, SIMPLE)
        target = None if compound else single_target(node)
        chosen.append((site, {
            "id": checkpoint_id(name, len(chosen) + 1), "span": columns.span(node), "statement": columns.segment(node),
            "target": target, "annotation": annotation_of(target, site, scopes) if target else None,
            "retry_allowed": not compound, "compound": compound,
        }))
    return chosen


def checkpoint_id(name: str, number: int) -> str:
    """A checkpoint's id: the file's display name and the checkpoint's 1-based number in it."""
    return f"{name}:c{number}"


def _annotations_by_scope(sites: list[Site]) -> dict:
    """_annotated_names of every scope, read from the statement index in one pass (the scopes
    annotation_of keeps): a statement's Site names the scope whose body holds it."""
    scopes: dict = {}
    for site in sites:
        by_name = scopes.get(id(site.scope_node))
        if by_name is None:
            by_name = scopes[id(site.scope_node)] = {}
        node = site.node
        if type(node) is ast.AnnAssign and type(node.target) is ast.Name and node.simple:
            by_name.setdefault(node.target.id, []).append(((node.lineno, node.col_offset), node.annotation))
    for by_name in scopes.values():
        for entries in by_name.values():
            entries.sort(key=lambda item: item[0])
    return scopes
