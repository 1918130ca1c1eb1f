"""Classifies one resolved annotation into a Form: the only contracts file that reads typing internals.

Every other contracts file (schema, checks) matches on `Form.kind` and never asks `typing` itself,
so the differences between CPython 3.11, 3.12 and 3.13 stay here, each one commented. Only the
public helpers get_origin, get_args, get_type_hints(include_extras=True), is_typeddict and
dataclasses.fields are used.

Classification is shallow: a Form names its child annotations and the caller classifies them when
it needs them, so recursive dataclasses and TypedDicts cost nothing here.
"""

import collections.abc
import enum
import sys
import types
import typing

from .records import Field, Form
from .repr import NoneType, class_name, is_finite_float, type_repr

__all__ = [
    "KEY_WRAPPERS", "KINDS", "SUPPORTED", "Unsupported", "class_hints", "classify",
    "is_json_scalar", "unsupported_message",
]

SUPPORTED = (
    "int, float, str, bool, None, Any, object, list[T], dict[K, V], tuple[T1, T2], tuple[T, ...], "
    "set[T], Optional[T], Union[...] or A | B, Literal[...], TypedDict, dataclasses, Enum, "
    "Annotated[T, 'description'], NewType and classes"
)

KINDS = (
    "any", "none", "int", "float", "str", "bool",
    "list", "set", "frozenset", "tuple", "tuple_of", "dict",
    "union", "literal", "typeddict", "dataclass", "enum", "annotated", "newtype", "class",
)

_PRIMITIVES = {int: "int", float: "float", str: "str", bool: "bool"}
_CONTAINERS = {list: "list", set: "set", frozenset: "frozenset"}
_BARE_TYPING_ALIASES = (
    (typing.List, list), (typing.Dict, dict), (typing.Set, set),
    (typing.FrozenSet, frozenset), (typing.Tuple, tuple),
)
# Wrappers that only mean something on a TypedDict key. typing.ReadOnly exists from 3.13 on.
KEY_WRAPPERS = tuple(
    form for form in (typing.Required, typing.NotRequired, getattr(typing, "ReadOnly", None)) if form
)
# typing.TypeAliasType (`type X = ...`) exists from 3.12 on; such an alias stands for its value.
_TYPE_ALIAS_TYPE = getattr(typing, "TypeAliasType", None)


class Unsupported(Exception):
    """Internal: `tp` is outside SPEC §6's set; the public functions turn it into UnsupportedAnnotation."""

    def __init__(self, tp, reason: str):
        super().__init__(reason)
        self.tp = tp
        self.reason = reason


def unsupported_message(annotation: str, error: Unsupported) -> str:
    inner = type_repr(error.tp)
    what = f"annotation {annotation}" if inner == annotation else f"{inner} in annotation {annotation}"
    return f"unsupported {what}: {error.reason}. Supported: {SUPPORTED}"


def is_json_scalar(value) -> bool:
    return value is None or type(value) in (str, int, bool) or is_finite_float(value)


def classify(tp) -> Form:
    if type(tp) is type:  # a builtin class's Form never changes: made once (a block's pause asks often)
        form = _BUILTIN_FORMS.get(tp)
        if form is not None:
            return form
    if tp is typing.Any or tp is object:
        return _ANY_FORM
    if tp is None or tp is NoneType:
        return _NONE_FORM
    if isinstance(tp, typing.NewType):
        return Form("newtype", args=(tp.__supertype__,))
    if _TYPE_ALIAS_TYPE is not None and isinstance(tp, _TYPE_ALIAS_TYPE):
        return classify(tp.__value__)
    for alias, builtin in _BARE_TYPING_ALIASES:
        if tp is alias:
            return _classify_class(builtin)
    origin = typing.get_origin(tp)
    if origin is not None:
        return _classify_generic(tp, origin, typing.get_args(tp))
    if isinstance(tp, type):
        return _classify_class(tp)
    raise Unsupported(tp, _not_a_type_reason(tp))


def _not_a_type_reason(tp) -> str:
    if isinstance(tp, typing.TypeVar):
        return "type variables cannot be checked at run time"
    if type(tp) is str or isinstance(tp, typing.ForwardRef):
        return "this forward reference was not resolved"
    if type(tp).__module__ == "typing":
        return "this typing form needs type arguments or is not a checkable type"
    return "it is not a type"


def _classify_generic(tp, origin, args) -> Form:
    if origin is typing.Annotated:
        notes = [meta for meta in args[1:] if type(meta) is str]
        return Form("annotated", args=(args[0],), text=" ".join(notes) or None)
    if origin is typing.Union or origin is types.UnionType:
        return Form("union", args=args)
    if origin is typing.Literal:
        for value in args:
            if not (is_json_scalar(value) or isinstance(value, enum.Enum)):
                raise Unsupported(tp, "Literal values must be str, int, bool, None or Enum members")
        return Form("literal", values=args)
    if origin in _CONTAINERS:
        if len(args) != 1:
            raise Unsupported(tp, f"{origin.__name__}[...] takes exactly one type argument")
        return Form(_CONTAINERS[origin], args=args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return Form("tuple_of", args=args[:1])
        if Ellipsis in args:
            raise Unsupported(tp, "'...' is only allowed as tuple[T, ...]")
        return Form("tuple", args=args)
    if origin is dict:
        if len(args) != 2:
            raise Unsupported(tp, "dict[...] takes exactly two type arguments, dict[K, V]")
        return Form("dict", args=args)
    if origin in KEY_WRAPPERS:
        raise Unsupported(tp, "Required, NotRequired and ReadOnly belong on TypedDict keys only")
    if origin is collections.abc.Callable:
        raise Unsupported(tp, "callables cannot be checked")
    if origin is typing.Generic:
        raise Unsupported(tp, "Generic is not a checkable type")
    if isinstance(origin, type):
        raise Unsupported(tp, "a subscripted generic class cannot be checked; annotate with the bare class")
    raise Unsupported(tp, "this typing form cannot be checked")


def _classify_class(cls: type) -> Form:
    if cls in _PRIMITIVES:
        return Form(_PRIMITIVES[cls])
    if cls in _CONTAINERS:
        return Form(_CONTAINERS[cls], args=(typing.Any,))
    if cls is tuple:
        return Form("tuple_of", args=(typing.Any,))
    if cls is dict:
        return Form("dict", args=(typing.Any, typing.Any))
    if typing.is_typeddict(cls):
        return _classify_typeddict(cls)
    if hasattr(cls, "__dataclass_fields__"):  # dataclasses.is_dataclass; dataclasses made it
        return _classify_dataclass(cls)
    if issubclass(cls, enum.Enum):
        return Form("enum", cls=cls, values=tuple(cls))
    # `_is_protocol` is how typing marks Protocol classes on 3.11-3.13 (typing.is_protocol is 3.13+).
    if cls.__dict__.get("_is_protocol", False):
        raise Unsupported(cls, "Protocol classes cannot be checked; annotate with a concrete class")
    if cls is collections.abc.Callable:
        raise Unsupported(cls, "callables cannot be checked")
    return Form("class", cls=cls)


_ANY_FORM = Form("any")
_NONE_FORM = Form("none")
_BUILTIN_FORMS = {cls: _classify_class(cls) for cls in (*_PRIMITIVES, *_CONTAINERS, tuple, dict)}


def class_hints(cls: type) -> dict:
    """get_type_hints(include_extras=True), with typing's names as a fallback for names the module lacks.

    A class body annotated `Literal['a']` under `from __future__ import annotations` in a module
    that never imported Literal resolves the same way resolve_annotation does.
    """
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except NameError:
        module_globals = getattr(sys.modules.get(cls.__module__), "__dict__", {})
        fallback = {name: getattr(typing, name) for name in typing.__all__ if name not in module_globals}
        return typing.get_type_hints(cls, localns=fallback, include_extras=True)


def _unresolvable(cls: type, error: Exception) -> str:
    return f"the annotations of {class_name(cls)} cannot be resolved ({type(error).__name__}: {error})"


def _classify_typeddict(cls: type) -> Form:
    try:
        hints = class_hints(cls)
    except Exception as error:  # NameError, or the TypeError of a malformed annotation
        raise Unsupported(cls, _unresolvable(cls, error)) from None
    required_keys = cls.__required_keys__
    fields = []
    for name, hint in hints.items():
        required = name in required_keys
        # Under `from __future__ import annotations`, __required_keys__ misses Required/NotRequired
        # written inside the string, so the resolved wrapper has the last word.
        while typing.get_origin(hint) in KEY_WRAPPERS:
            if typing.get_origin(hint) is typing.Required:
                required = True
            elif typing.get_origin(hint) is typing.NotRequired:
                required = False
            hint = typing.get_args(hint)[0]
        fields.append(Field(name, hint, required))
    return Form("typeddict", cls=cls, fields=tuple(fields))


def _classify_dataclass(cls: type) -> Form:
    import dataclasses  # the program's own: it made the class

    try:
        hints = class_hints(cls)
    except Exception as error:
        # The class still works by handle; only building it from JSON is impossible.
        return Form("dataclass", cls=cls, text=_unresolvable(cls, error))
    fields = []
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        required = field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        fields.append(Field(field.name, hints.get(field.name, typing.Any), required))
    return Form("dataclass", cls=cls, fields=tuple(fields))
