"""What a file's handler calls become when the program pickles code that holds them (SPEC §2).

cloudpickle (and joblib, Dask, Ray, PySpark through it) ships a function of `__main__` by value:
its code object with its constants, among them the calls its checkpoint handlers test or
subscript (instrument.py's `K in retry`, `K in raising`, `value[K]`, …: unseen.HandlerCall). Each
pickles as a built-in object that answers as a run without a model does (no retry, raise the original),
so any Python unpickles and runs the function as python3 would, a failure included, with no
aiython.
"""

import sys

__all__ = ["answer_of"]

# For any key K (at least KEY_OFFSET): an empty Counter holds no K (`K in retry`: no retry, no
# value bound) and reads 0 without storing it; a range from 1 holds every K (`K in raising`: raise
# the original).
_RAISING = ("raising", "settle")
_EVERYTHING = range(1, sys.maxsize)


def answer_of(name: str):
    """`__reduce__` of a HandlerCall named `name`."""
    if name in _RAISING:
        return (range, (_EVERYTHING.start, _EVERYTHING.stop))
    return (_counter(), ())


def _counter():
    from collections import Counter  # loaded only when the program pickles such code

    return Counter
