"""Request content (SPEC §5.1): related objects and frame objects (each related object described
by summary.py's structural summary).

Related objects are the frame's names that the statement's text mentions; frame objects are the
frame's own bound names. With `context_values` off, only structure is sent (types, sizes,
identifier-like keys), never values.
"""

from __future__ import annotations

from .. import pycompat
from .bounds import FRAME_OBJECTS_LIMIT, LISTING_STR_LIMIT, RELATED_LIMIT
from .descriptors import descriptor
from .reading import MODULE_DUNDERS, hidden_name
from .summary import summarize

__all__ = ["UNBOUND", "describe_names", "frame_objects", "frame_scopes", "related_objects", "statement_words"]

TYPE_CHECKING = False  # typing is not imported at run time: the bridge must import cheaply
if TYPE_CHECKING:
    from typing import Callable

    HandleOf = Callable[[object], str]

_MISSING = object()  # related_objects: a name not bound in a scope

_words_of: dict[str, tuple[str, ...]] = {}  # statement text -> its words (asked at every pause of a block); bounded


def statement_words(text: str) -> list[str]:
    """Identifier-like words of ``text`` in order of first occurrence (``ticket.body`` gives
    ``ticket`` and ``body``)."""
    found = _words_of.get(text)
    if found is None:
        if len(_words_of) >= 256:
            _words_of.clear()
        found = _words_of[text] = tuple(_words(text))
    return list(found)


def _words(text: str) -> list[str]:
    words: dict[str, None] = {}
    start = None
    for i, ch in enumerate(text + " "):
        if ch.isalnum() or ch == "_":
            if start is None:
                start = i
            continue
        if start is not None:
            word = text[start:i]
            if word.isidentifier():
                words.setdefault(word, None)
            start = None
    return list(words)


def related_objects(
    frame,
    statement_text: str,
    *,
    context_values: bool,
    handle_of: HandleOf | None = None,
    scopes: list[tuple[str, dict]] | None = None,
) -> list[dict]:
    """Every local or global whose name occurs as a word in ``statement_text`` (SPEC §5.1), in
    order of first occurrence, at most RELATED_LIMIT. Builtins and dunder names are left out,
    and so is a function's local that is not bound yet (it shadows any global of that name).
    Modules, functions and classes named in the text are kept, described briefly (kind,
    qualname, a function's parameters): the text names them, so the model may need them.

    ``scopes`` is the lookup order as (scope, mapping) pairs; default ``frame_scopes(frame)``.
    """
    if scopes is None:
        scopes = frame_scopes(frame)
    out = []
    for word in statement_words(statement_text):
        if word.startswith("_") and hidden_name(word):
            continue
        for scope, mapping in scopes:
            value = dict.get(mapping, word, _MISSING)
            if value is _MISSING:
                continue
            if value is not UNBOUND:
                handle = handle_of(value) if handle_of else None
                summary = summarize(value, context_values=context_values, handle=handle)
                out.append({"name": word, "scope": scope, **summary})
            break
        if len(out) >= RELATED_LIMIT:
            break
    return out


UNBOUND = object()  # frame_scopes: a function's local that has no value yet


def frame_scopes(frame) -> list[tuple[str, dict]]:
    """(scope, names) in lookup order: "local" (UNBOUND for a function's unassigned locals),
    "enclosing" (free variables), "global". A module frame has only "global"."""
    if not pycompat.is_optimized(frame):
        namespace = frame.f_locals
        if namespace is frame.f_globals:
            return [("global", frame.f_globals)]
        # A class body's namespace may be a program mapping (metaclass __prepare__): not read.
        local = dict(namespace) if type(namespace) is dict else {}
        return [("local", local), ("global", frame.f_globals)]
    code = frame.f_code
    values = pycompat.read_frame_locals(frame)
    free = set(code.co_freevars)
    local = {n: values.get(n, UNBOUND) for n in pycompat.frame_local_names(code) if n not in free}
    enclosing = {n: values[n] for n in code.co_freevars if n in values}
    return [("local", local), ("enclosing", enclosing), ("global", frame.f_globals)]


def frame_objects(
    frame,
    *,
    context_values: bool = True,
    handle_of: HandleOf | None = None,
    limit: int = FRAME_OBJECTS_LIMIT,
    scopes: list[tuple[str, dict]] | None = None,
    leave_out=None,
) -> list[dict]:
    """The frame's own bound names (a module frame's globals; a function's locals, free
    variables and any ``scopes`` other than "global"), at most ``limit``, dunders skipped, each
    a compact descriptor (values of primitives only with context_values). ``leave_out(name,
    value)`` true: that name is not listed (nor counted against ``limit``)."""
    if scopes is None:
        scopes = frame_scopes(frame)
    own = [(name, value) for scope, mapping in scopes if scope != "global" or len(scopes) == 1
           for name, value in dict.items(mapping) if value is not UNBOUND]
    return describe_names(own, context_values=context_values, handle_of=handle_of, limit=limit, leave_out=leave_out)


def describe_names(items, *, context_values: bool, handle_of: HandleOf | None, limit: int,
                   leave_out=None) -> list[dict]:
    """Compact ``{"name", descriptor…}`` entries for (name, value) pairs, skipping dunders and
    those ``leave_out(name, value)`` names."""
    out = []
    for name, value in items:
        # A module's own dunders come first in its globals: a set lookup skips them.
        if type(name) is not str or name in MODULE_DUNDERS or not name.isidentifier() or hidden_name(name):
            continue
        if leave_out is not None and leave_out(name, value):
            continue
        if len(out) >= limit:
            break
        d = descriptor(value, handle_of(value) if handle_of else None, str_limit=LISTING_STR_LIMIT)
        if not context_values:
            for key in ("value", "text"):
                d.pop(key, None)
        out.append({"name": name, **d})
    return out
