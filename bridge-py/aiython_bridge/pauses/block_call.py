"""The call of an AI block, `NAME.block(N)` and `(await NAME.ablock(N))()`, as C code (runtime.py).

The block runs while `NAME.block` is looked up; what the lookup returns is then called with N
by the program's own frame. For a value that is `{N: value}.__getitem__`; for an exception it is
`max(exc, N, key=THROW)`, where THROW is the `throw` of a generator that has finished, which
raises the exception it is given from C. Either way no frame of aiython's is on the stack when
the block's line gets its result, so an exception's traceback starts at the program's frame.
An async block's coroutine returns such a call (`settled_value`, `settled_raise`) instead of
raising through its own frames, and the program's frame calls it with no argument.

`called_index` reads N from the calling frame's code: after the attribute lookup that runs
(LOAD_ATTR, or 3.11's LOAD_METHOD; f_lasti is on it, or on its last inline cache entry once it
is specialized) and its inline cache entries, the call's argument is a
LOAD_CONST of an int (with EXTENDED_ARG prefixes past 255 constants).
"""

from _functools import partial

from aiython_bridge import modules

__all__ = ["called_index", "raising", "returning", "settled_raise", "settled_value"]


def _finished():
    return
    yield


_FINISHED = _finished()
next(_FINISHED, None)
_THROW = _FINISHED.throw
_OPS = []  # (lookups, CACHE, EXTENDED_ARG, LOAD_CONST), read from opcode once


def _ops():
    if not _OPS:
        opmap = modules.stdlib("opcode").opmap
        lookups = frozenset(opmap[name] for name in ("LOAD_ATTR", "LOAD_METHOD") if opmap.get(name, 256) < 256)
        _OPS.append((lookups, opmap["CACHE"], opmap["EXTENDED_ARG"], opmap["LOAD_CONST"]))
    return _OPS[0]


def called_index(frame):
    """N when `frame` is looking up `NAME.block` to call it with the constant N, else None."""
    lookups, cache, extended, load_const = _ops()
    code = frame.f_code.co_code
    at = frame.f_lasti
    if at < 0 or at + 1 >= len(code):
        return None
    start = at  # a specialized lookup (3.12's LOAD_ATTR_PROPERTY) leaves f_lasti on its last cache entry
    while start >= 2 and code[start] == cache:
        start -= 2
    if code[start] not in lookups:
        return None
    at += 2
    while at + 1 < len(code) and code[at] == cache:
        at += 2
    arg = 0
    while at + 1 < len(code) and code[at] == extended:
        arg = (arg | code[at + 1]) << 8
        at += 2
    if at + 1 >= len(code) or code[at] != load_const:
        return None
    value = frame.f_code.co_consts[arg | code[at + 1]]
    return value if type(value) is int else None


def returning(index, value):
    """The call that gives `value` for `index`."""
    return {index: value}.__getitem__


def raising(exc):
    """The call that raises `exc` from C, its traceback to be the program's frames only."""
    return partial(max, exc.with_traceback(None), key=_THROW)


def settled_value(value):
    """The call, with no argument, that gives `value` (an async block's)."""
    return [value].pop


def settled_raise(exc):
    """The call, with no argument, that raises `exc` from C (an async block's)."""
    return partial(max, exc.with_traceback(None), 0, key=_THROW)
