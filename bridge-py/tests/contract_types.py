"""The annotated types and values the type-contract tests share (SPEC §6): enums, dataclasses, TypedDicts, protocols, generics and hostile containers."""

import dataclasses
import enum
from typing import Callable, Generic, Literal, NewType, NotRequired, Protocol, Required, TypedDict, TypeVar
from aiython_bridge.contracts import json_schema


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Planet(enum.Enum):
    EARTH = (5.97, 6.37)


@dataclasses.dataclass
class Ticket:
    title: str
    priority: int = 3
    tags: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Queue:
    name: str
    tickets: list[Ticket]
    color: Color


@dataclasses.dataclass
class Node:
    label: str
    children: list["Node"] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Positive:
    amount: int

    def __post_init__(self):
        if self.amount <= 0:
            raise ValueError("amount must be positive")


@dataclasses.dataclass
class Job:
    name: str
    callback: Callable[[], None]


@dataclasses.dataclass
class Stamped:
    text: str
    created: float = dataclasses.field(init=False, default=0.0)


class Analysis(TypedDict):
    severity: Literal["low", "high"]
    note: NotRequired[str]


class Loose(TypedDict, total=False):
    name: Required[str]
    count: int


class Tree(TypedDict):
    value: int
    children: list["Tree"]


class Order:
    """A program class: returned by handle, never as JSON."""


class Hostile:
    """A program object whose hooks must never run while it is checked or described."""

    def __repr__(self):
        raise AssertionError("__repr__ called")

    def __str__(self):
        raise AssertionError("__str__ called")

    def __eq__(self, other):
        raise AssertionError("__eq__ called")

    __hash__ = object.__hash__


class HostileList(list):
    def __iter__(self):
        raise AssertionError("__iter__ called")

    def __len__(self):
        raise AssertionError("__len__ called")


class Shape(Protocol):
    def area(self) -> float: ...


T = TypeVar("T")


class Box(Generic[T]):
    pass


UserId = NewType("UserId", int)


def schema(tp):
    return json_schema(tp)
