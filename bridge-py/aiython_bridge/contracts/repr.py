"""Spelling of types and values in type-contract messages (SPEC §6) and in `--explain`.

`type_repr` writes annotations the way Python source would (`list[int]`, `int | None`,
`Literal['low', 'high']`); unions always use the PEP 604 `|` spelling, `Optional[X]` included.
`describe_value` shows a value short and safely: it never calls `repr()`, `str()`, properties or
`__eq__` of program objects (an object of a program class is shown by its type name only), and it
truncates long strings and huge integers.
"""

import enum
import math
import types
import typing

__all__ = [
    "MAX_INT_BITS_SHOWN", "MAX_STR_SHOWN", "NoneType", "class_name", "describe_value",
    "is_finite_float", "key_repr", "literal_repr", "short_str", "type_repr",
]

NoneType = type(None)

MAX_STR_SHOWN = 50
MAX_INT_BITS_SHOWN = 128

_BARE_TYPING_ALIASES = (
    (typing.List, "list"),
    (typing.Dict, "dict"),
    (typing.Set, "set"),
    (typing.FrozenSet, "frozenset"),
    (typing.Tuple, "tuple"),
)

# typing.TypeAliasType (`type X = ...`) exists from 3.12 on.
_TYPE_ALIAS_TYPE = getattr(typing, "TypeAliasType", None)


def class_name(cls: type) -> str:
    """A class's __qualname__ without the `f.<locals>.` prefix of classes defined in functions."""
    qualname = type.__dict__["__qualname__"].__get__(cls)
    return qualname.rsplit("<locals>.", 1)[-1]


def short_str(text: str) -> str:
    """A Python-quoted string, cut after MAX_STR_SHOWN characters."""
    if len(text) <= MAX_STR_SHOWN:
        return str.__repr__(text)
    return f"{str.__repr__(text[:MAX_STR_SHOWN])}... ({len(text)} chars)"


def _short_int(number: int) -> str:
    if number.bit_length() <= MAX_INT_BITS_SHOWN:
        return int.__repr__(number)
    return f"<{number.bit_length()}-bit integer>"


def literal_repr(value) -> str:
    """One value of a Literal[...] as it is written in source."""
    kind = type(value)
    if value is None:
        return "None"
    if kind is str:
        return short_str(value)
    if kind is bool:
        return "True" if value else "False"
    if kind is int:
        return _short_int(value)
    if kind is float:
        return float.__repr__(value)
    if kind is bytes:
        return bytes.__repr__(value[:MAX_STR_SHOWN])
    if issubclass(kind, enum.Enum):
        return f"{class_name(kind)}.{value._name_}"
    return f"<{class_name(kind)} object>"


def key_repr(key) -> str:
    """A dict key inside a path: `['name']`, `[3]`, `[Color.RED]`, `[<Ticket object>]`."""
    return f"[{literal_repr(key)}]"


def describe_value(value) -> str:
    """What was received, for the `got ...` half of a message: `str 'medium'`, `list of length 3`."""
    kind = type(value)
    if value is None:
        return "None"
    if kind in (str, bool, int, float):
        return f"{kind.__name__} {literal_repr(value)}"
    if kind in (list, tuple):
        return f"{kind.__name__} of length {kind.__len__(value)}"
    if kind in (set, frozenset):
        return f"{kind.__name__} of size {kind.__len__(value)}"
    if kind is dict:
        return "dict"
    if issubclass(kind, enum.Enum):
        return literal_repr(value)
    return class_name(kind)


def is_finite_float(value) -> bool:
    return type(value) is float and math.isfinite(value)


_BUILTIN_NAMES = {cls: cls.__name__ for cls in (int, float, str, bool, list, dict, set, frozenset, tuple, object)}


def type_repr(tp) -> str:
    """Python-style spelling of an annotation; never raises, whatever `tp` is."""
    if type(tp) is type and tp in _BUILTIN_NAMES:  # spelled as class_name would, without the checks
        return _BUILTIN_NAMES[tp]
    if tp is None or tp is NoneType:
        return "None"
    if tp is typing.Any:
        return "Any"
    if tp is Ellipsis:
        return "..."
    if type(tp) is str:
        return tp
    if isinstance(tp, typing.ForwardRef):
        return tp.__forward_arg__
    if isinstance(tp, (typing.NewType, typing.TypeVar)):
        return tp.__name__
    if _TYPE_ALIAS_TYPE is not None and isinstance(tp, _TYPE_ALIAS_TYPE):
        return tp.__name__
    if type(tp) is list:  # the parameter list of Callable[[int], str]
        return "[" + ", ".join(type_repr(arg) for arg in tp) + "]"
    for alias, name in _BARE_TYPING_ALIASES:
        if tp is alias:
            return name
    origin = typing.get_origin(tp)
    if origin is not None:
        return _generic_repr(tp, origin, typing.get_args(tp))
    if isinstance(tp, type):
        return class_name(tp)
    if type(tp).__module__ == "typing":  # bare Literal, Optional, Callable ...: typing spells them
        return repr(tp).replace("typing.", "")
    return f"<{class_name(type(tp))} object>"


def _generic_repr(tp, origin, args) -> str:
    if origin is typing.Annotated:
        return type_repr(args[0])
    if origin is typing.Union or origin is types.UnionType:
        return " | ".join(type_repr(arg) for arg in args)
    if origin is typing.Literal:
        return "Literal[" + ", ".join(literal_repr(arg) for arg in args) + "]"
    if isinstance(origin, type):
        name = class_name(origin)
    else:  # Required, NotRequired, ReadOnly, ClassVar ...: typing's own special forms
        name = repr(origin).replace("typing.", "")
    if not args:
        return f"{name}[()]" if origin is tuple else name
    return f"{name}[" + ", ".join(type_repr(arg) for arg in args) + "]"
