"""Evaluates an annotation's source text in a frame's namespaces (SPEC §3.2, §6).

The text comes from the program's source (the frontend reads it, never evaluates it). At run time
it is evaluated against the frame: locals, then globals, then builtins, and last the `typing`
module's public names, so `x: Literal["a"] = ...` works in a module that never imported Literal.
The namespaces are only read; nothing is added to them.

Only the syntax of annotations is evaluated: names, attributes, subscripts, tuples and lists,
constants, `-` before a number and `|` between types. A call or any other expression is refused,
so resolving an annotation runs no program code beyond attribute and subscript lookups.

Strings inside the result (`list['Ticket']`, `Optional['Ticket']`) are forward references and are
resolved against the same namespaces; strings inside Literal and Annotated metadata are values.
"""

import ast
import builtins
import types
import typing

from .. import pycompat
from .forms import KEY_WRAPPERS

__all__ = ["MAX_CACHED_ANNOTATIONS", "MAX_FORWARD_DEPTH", "ResolveError", "evaluate_annotation"]

MAX_FORWARD_DEPTH = 8
MAX_CACHED_ANNOTATIONS = 512
_codes: dict = {}  # annotation text -> its code object or its ResolveError (_compiled)

_ALLOWED_NODES = (
    ast.Expression, ast.Name, ast.Load, ast.Attribute, ast.Subscript, ast.Tuple, ast.List,
    ast.Constant, ast.BinOp, ast.BitOr, ast.UnaryOp, ast.USub,
)
_REBUILDABLE = (list, dict, set, frozenset, tuple)


class ResolveError(Exception):
    """Internal: the text cannot be evaluated; the message says why."""


class _Namespace:
    """Read-only name lookup for eval(): locals, globals, builtins, then typing's public names."""

    def __init__(self, globals_: dict, locals_):
        self._locals = locals_ if locals_ is not None else {}
        self._globals = globals_
        found = globals_.get("__builtins__", builtins)
        self._builtins = found if isinstance(found, dict) else vars(found)

    def __getitem__(self, name: str):
        for scope in (self._locals, self._globals, self._builtins):
            if name in scope:
                return scope[name]
        if name == "typing":
            return typing
        if name in typing.__all__:
            return getattr(typing, name)
        raise KeyError(name)


def evaluate_annotation(text: str, globals_: dict, locals_=None):
    namespace = _Namespace(globals_, locals_)
    return _resolve_refs(_evaluate(text, namespace), namespace, 0)


def _compiled(text: str):
    """The code of an annotation's text, or the ResolveError it gets: the same for the same text,
    so each text is parsed, checked and compiled once per process (a block in a loop asks again
    at every pause). The cache is bounded; past its size texts are compiled each time."""
    found = _codes.get(text)
    if found is None:
        try:
            found = _compile(text)
        except ResolveError as error:
            found = error
        if len(_codes) < MAX_CACHED_ANNOTATIONS:
            _codes[text] = found
    if isinstance(found, ResolveError):
        raise ResolveError(*found.args) from None
    return found


def _compile(text: str):
    try:
        tree = pycompat.parse_ast(text.strip(), mode="eval")
    except SyntaxError as error:
        raise ResolveError(f"it is not valid Python ({error.msg})") from None
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES) or (isinstance(node, ast.BinOp) and not isinstance(node.op, ast.BitOr)):
            raise ResolveError(f"{type(node).__name__} is not allowed in an annotation "
                               "(only names, attributes, subscripts, constants and | are)")
    return compile(tree, "<annotation>", "eval")


def _evaluate(text: str, namespace: _Namespace):
    code = _compiled(text)
    try:
        # A fresh globals dict: eval() would otherwise add __builtins__ to the program's globals.
        return eval(code, {"__builtins__": {}}, namespace)
    except NameError as error:
        raise ResolveError(str(error)) from None
    except Exception as error:  # AttributeError, TypeError of a bad subscript, ...
        raise ResolveError(f"{type(error).__name__}: {error}") from None


def _resolve_refs(tp, namespace: _Namespace, depth: int):
    """Replace forward references (strings, ForwardRef) inside `tp` by what they name."""
    if type(tp) is str or isinstance(tp, typing.ForwardRef):
        if depth >= MAX_FORWARD_DEPTH:
            raise ResolveError("forward references nest too deeply")
        text = tp if type(tp) is str else tp.__forward_arg__
        return _resolve_refs(_evaluate(text, namespace), namespace, depth + 1)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is None or not args or origin is typing.Literal:
        return tp
    if origin is typing.Annotated:
        inner = _resolve_refs(args[0], namespace, depth)
        return tp if inner is args[0] else typing.Annotated[(inner, *args[1:])]
    resolved = tuple(arg if arg is Ellipsis else _resolve_refs(arg, namespace, depth) for arg in args)
    if all(new is old for new, old in zip(resolved, args)):
        return tp
    if origin is typing.Union or origin is types.UnionType:
        return typing.Union[resolved]
    if origin in _REBUILDABLE:
        return origin[resolved]
    if origin in KEY_WRAPPERS:
        return origin[resolved[0]]
    return tp
