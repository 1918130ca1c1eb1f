"""What checking and converting against an expected type share (SPEC §6): the mismatch, the state
of one walk over a value, the bounds, and the rule for unions."""

from .forms import classify
from .records import Form
from .repr import describe_value, type_repr

__all__ = [
    "EXACT", "MAX_ITEMS_CHECKED", "MAX_NODES_CHECKED", "Mismatch", "Walk", "first_member",
    "mismatch",
]

MAX_ITEMS_CHECKED = 1000
MAX_NODES_CHECKED = 100_000

EXACT = {"int": int, "str": str, "bool": bool}


class Mismatch(Exception):
    """Internal: the value does not fit; `message` is the final TypeContractError text."""

    def __init__(self, path: str, message: str, deep: bool):
        super().__init__(message)
        self.path = path
        self.message = message
        self.deep = deep  # the value's outer shape fitted; the fault is inside it


def mismatch(path: str, tp, value, detail: str = "", deep: bool = False) -> Mismatch:
    suffix = f" {detail}" if detail else ""
    return Mismatch(path, f"{path}: expected {type_repr(tp)}, got {describe_value(value)}{suffix}", deep)


class Walk:
    """State of one check: classified forms by annotation identity, node budget, containers on the path.
    `forms`: a dict of classified forms to share between checks of the same annotations (a caller
    that checks one annotation again and again keeps it; the annotations it holds stay alive)."""

    def __init__(self, forms=None):
        self._forms = {} if forms is None else forms
        self.nodes = 0
        self.open = set()

    def form(self, tp) -> Form:
        hit = self._forms.get(id(tp))
        if hit is not None and hit[0] is tp:
            return hit[1]
        form = classify(tp)
        self._forms[id(tp)] = (tp, form)  # keeping tp alive keeps its id unique
        return form


def first_member(value, tp, form, path, walk, check):
    """The first union member that accepts `value` (members are tried in written order)."""
    inner = []
    for member in form.args:
        try:
            return check(value, member, path, walk)
        except Mismatch as error:
            if error.deep or error.path != path:
                inner.append(error)
    if len(inner) == 1:
        raise inner[0]
    raise mismatch(path, tp, value)
