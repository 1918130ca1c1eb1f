"""The program objects the description tests share (SPEC §5.1, §5.2): hostile classes whose every
hook records itself in CALLS (so a test can prove none ran), a dataclass, a slotted dataclass, an
enum, a function and a table for related objects, and a handle table that counts."""

import dataclasses
import enum
from typing import Optional

CALLS = []
TABLE = {"low": 1, "high": 2}


def summarize(text, limit=3, *, style="short"):
    return text


class Meta(type):
    def __getattribute__(cls, name):
        CALLS.append(("meta.__getattribute__", name))
        return super().__getattribute__(name)

    @property
    def __name__(cls):
        CALLS.append("meta.__name__")
        return "Fake"


class Hostile(metaclass=Meta):
    def __init__(self):
        self.title = "report"
        self.count = 3
        self.nested = [1, {"k": "v"}]

    def __repr__(self):
        CALLS.append("__repr__")
        raise RuntimeError("repr called")

    def __str__(self):
        CALLS.append("__str__")
        raise RuntimeError("str called")

    def __getattr__(self, name):
        CALLS.append(("__getattr__", name))
        raise AttributeError(name)

    def __getattribute__(self, name):
        CALLS.append(("__getattribute__", name))
        return object.__getattribute__(self, name)

    def __len__(self):
        CALLS.append("__len__")
        return 0

    def __iter__(self):
        CALLS.append("__iter__")
        return iter(())

    def __eq__(self, other):
        CALLS.append("__eq__")
        return False

    def __hash__(self):
        CALLS.append("__hash__")
        return 1

    def __bool__(self):
        CALLS.append("__bool__")
        return True

    def __format__(self, spec):
        CALLS.append("__format__")
        return ""

    @property
    def computed(self):
        CALLS.append("property")
        return 1

    @property
    def __class__(self):
        CALLS.append("__class__")
        return dict


class FakeDict:
    @property
    def __dict__(self):
        CALLS.append("__dict__ property")
        return {"leaked": True}


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = "set"

    def __getattribute__(self, name):
        CALLS.append(("__getattribute__", name))
        return object.__getattribute__(self, name)


class RecordingDict(dict):
    def items(self):
        CALLS.append("items")
        return iter(())

    def __iter__(self):
        CALLS.append("__iter__")
        return iter(())

    def __len__(self):
        CALLS.append("__len__")
        return 0

    def __getitem__(self, key):
        CALLS.append("__getitem__")
        raise KeyError(key)


@dataclasses.dataclass
class Ticket:
    title: str
    priority: int
    tags: list[str]
    owner: "Person"  # a forward reference: its annotation is the text
    due: Optional[int] = None


@dataclasses.dataclass
class Person:
    name: str


@dataclasses.dataclass(slots=True)
class Point:
    x: int
    y: int


class Color(enum.Enum):
    RED = "red"


def counting_handles():
    table = {}

    def handle_of(obj):
        return table.setdefault(id(obj), f"object-{len(table) + 1}")

    return handle_of


def nodes(tree):
    """Every descriptor in an inspect result."""
    if isinstance(tree, dict):
        found = [tree] if "qualname" in tree else []
        for value in tree.values():
            found += nodes(value)
        return found
    if isinstance(tree, list):
        return [n for item in tree for n in nodes(item)]
    return []
