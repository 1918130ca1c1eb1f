"""What a file's handler calls become when the program pickles code that holds them (SPEC §2).

cloudpickle (and joblib, Dask, Ray, PySpark through it) ships a function of `__main__` by value:
its code object with its constants, among them the calls its checkpoint handlers subscript
(instrument.py's `retry[K]`, `raising[K]`, …: unseen.HandlerCall). Each pickles as a built-in
object that answers its subscript as a run without a model does (no retry, raise the original),
so any Python unpickles and runs the function as python3 would, a failure included, with no
aiython.
"""

import sys

__all__ = ["answer_of"]

# For any key: a Counter answers 0 (no retry, no value bound) without storing the key; a range
# from 1 answers a positive int (raise the original).
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
