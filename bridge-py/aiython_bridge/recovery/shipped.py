"""What a file's handler object becomes when the program pickles code that holds it (SPEC §2).

cloudpickle (and joblib, Dask, Ray, PySpark through it) ships a function of `__main__` by value:
its code object with its constants, among them the object its checkpoint handlers call
(instrument.py's `R`). That object pickles as a `types.SimpleNamespace` of built-in functions
that answers the handlers as a run without a model does (no retry, raise the original), so any
Python unpickles and runs the function as python3 would, a failure included, with no aiython.
"""

import sys

__all__ = ["reduce_handlers"]

# Each handler call's answer from a built-in, for any int K: callable(K) is False, str(K) truthy.
_ANSWERS = {
    "retry": callable, "binding": callable,
    "raising": str, "settle": str,
    "value": id, "returned": id, "forget": id, "keep": max,
}


def reduce_handlers(self):
    """`__reduce__` of a handler object: a SimpleNamespace with the answers above."""
    return (type(sys.implementation), (), dict(_ANSWERS))
