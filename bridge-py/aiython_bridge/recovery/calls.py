"""The checkpoint handlers' calls (instrument.py): `K + KEY_OFFSET in retry`, `… in raising`,
`value[K + KEY_OFFSET]`, … and a retried return's `keep[K + KEY_OFFSET] = value`, constants of
the code (true-or-false ones tested, code_constants.ASKED, the others subscripted), one of each for the
whole process (CALL_OBJECTS, bound to code_constants.CALLS). A call's work is its file's handler
object's `_NAME(index, frame)` (`_keep(index, frame, value)`) with K taken back out of the key.

The file is found from the handler's frame: every handler tests `except Exception` against its
file's FileExceptions, a tuple `(Exception,)` that also holds the file's handler object, so the
work finds it among the frame's code constants (`owner_of`). One set of calls for every file
keeps a configured run's objects few: a file adds one object, not a set of calls of its own for
the garbage collector to visit (an import of sympy binds 500 files).

The tests and subscripts are unseen.HandlerCall's, chosen from C out of sight of the program's tracers;
`keep` is a plain method (its value is computed by program code, which stays traced, and it runs
only after a model chose to retry).
"""

import sys

from ..preparation.code_constants import CALLS, KEY_OFFSET
from .shipped import answer_of
from .unseen import handler_calls

__all__ = ["CALL_OBJECTS", "PROPAGATING", "FileExceptions", "forget_owners", "owner_of"]


class FileExceptions(tuple):
    """`(Exception,)` for one file's `except Exception` tests, holding the file's handler object."""

    def __new__(cls, owner):
        made = super().__new__(cls, (Exception,))
        made.owner = owner
        return made

    def __reduce__(self):  # shipped with the program's code (cloudpickle): the plain tuple
        return (tuple, ((Exception,),))


class _Propagating:
    """A handler's calls answered without a runtime: no retry, raise the original."""

    def _retry(self, index, frame):
        return False

    def _raising(self, index, frame):
        return True

    def _binding(self, index, frame):
        return False

    def _settle(self, index, frame):
        return True

    def _value(self, index, frame):
        return None

    def _keep(self, index, frame, value):
        return None

    def _returned(self, index, frame):
        return None

    def _forget(self, index, frame):
        return None


PROPAGATING = _Propagating()


# id(code object) -> (code object, handler object), for the code objects whose handlers ran: by
# id, since hashing a code object reads its whole bytecode on 3.12+ (the object is kept, so the
# id stays its own).
_OWNERS: dict = {}
_MOST_OWNERS = 4096  # then forgotten: a program that makes code again and again (reloads) keeps none of it


def owner_of(frame):
    """The handler object of the file whose handler runs in `frame` (its real FileCheckpoints once
    the runtime is made: sources.DeferredCheckpoints.target); PROPAGATING for code whose
    constants hold none (a copy of project code made by `code.replace`)."""
    code = frame.f_code
    entry = _OWNERS.get(id(code))
    return entry[1] if entry is not None and entry[0] is code else _found(code)


def _found(code):
    owner = next((c.owner for c in code.co_consts if type(c) is FileExceptions), PROPAGATING)
    owner = getattr(owner, "target", None) or owner
    if len(_OWNERS) >= _MOST_OWNERS:
        _OWNERS.clear()
    _OWNERS[id(code)] = (code, owner)
    return owner


def forget_owners() -> None:
    """The runtime is made: the code objects' handler objects are found again, the real ones."""
    _OWNERS.clear()


def _work(name: str):
    method = "_" + name

    def work(key, frame=None, _getframe=sys._getframe, _owners=_OWNERS):
        if frame is None:  # called from C by the handler itself: nothing watches
            frame = _getframe(1)
        code = frame.f_code
        entry = _owners.get(id(code))
        owner = entry[1] if entry is not None and entry[0] is code else _found(code)
        return getattr(owner, method)(key - KEY_OFFSET, frame)

    work.__name__ = work.__qualname__ = name
    return work


class _Keep:
    """`keep[K + KEY_OFFSET] = value`: a retried `return EXPR` succeeded with this value."""

    __slots__ = ()

    def __setitem__(self, key, value):
        frame = sys._getframe(1)
        owner_of(frame)._keep(key - KEY_OFFSET, frame, value)

    def __reduce__(self):
        return answer_of("keep")


CALL_OBJECTS = {CALLS[name]: call for name, call in handler_calls({
    name: _work(name) for name in CALLS if name != "keep"}).items()}
CALL_OBJECTS[CALLS["keep"]] = _Keep()
