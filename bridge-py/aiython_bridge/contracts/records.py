"""The records a classification gives (forms.py): a Form, what an annotation means to the checks,
and a Field, one key of a TypedDict or one init field of a dataclass. Frozen values, as
@dataclass(frozen=True) made them, without importing dataclasses (and the inspect, tokenize and
linecache it imports) at a program's first typed block.
"""

__all__ = ["Field", "Form"]


class _Frozen:
    """What @dataclass(frozen=True) gave Field and Form, without importing dataclasses (and the
    inspect, tokenize and linecache it imports) at a program's first typed block: equality and a
    hash by value, a repr, and no assignment after __init__."""

    __slots__ = ()

    def _values(self):
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other):
        return self._values() == other._values() if type(other) is type(self) else NotImplemented

    def __hash__(self):
        return hash(self._values())

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (n, getattr(self, n)) for n in self.__slots__))

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r}")

    def _set(self, **values):
        for name, value in values.items():
            object.__setattr__(self, name, value)


class Field(_Frozen):
    """One key of a TypedDict or one init field of a dataclass."""

    __slots__ = ("name", "tp", "required")

    def __init__(self, name: str, tp: object, required: bool):
        self._set(name=name, tp=tp, required=required)


class Form(_Frozen):
    """What an annotation means to the checks.

    args: child annotations (element, key/value, union members, Annotated/NewType inner type).
    values: Literal values, or the members of an Enum.
    text: the description of an Annotated; for a dataclass whose field annotations cannot be
    resolved, why it cannot be built from JSON.
    """

    __slots__ = ("kind", "args", "cls", "fields", "values", "text")

    def __init__(self, kind: str, args: tuple = (), cls: type | None = None, fields: tuple = (), values: tuple = (), text: str | None = None):
        self._set(kind=kind, args=args, cls=cls, fields=fields, values=values, text=text)
