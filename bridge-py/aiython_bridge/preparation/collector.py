"""The cyclic garbage collector paused around work that makes and drops many objects (preparing
a source, prepare.py): the interpreter's own collector, without putting the gc module in
sys.modules (python3 starts without it).
"""

import _imp
import sys

__all__ = ["without_collections"]


def without_collections(work, *args):
    """work(*args) with the cyclic garbage collector paused: a module's tree and its handlers
    are tens of thousands of objects, freed by reference counting once compiled, and each
    collection they would trigger walks them all (half the time of instrumenting). The
    collector is the interpreter's own; the gc module is not put in sys.modules (python3
    starts without it)."""
    collector = _collector()
    if not collector.isenabled():
        return work(*args)
    collector.disable()
    try:
        return work(*args)
    finally:
        collector.enable()


def _collector():
    if not _gc:
        from _frozen_importlib import BuiltinImporter  # importlib.machinery's, without importing it

        _gc.append(sys.modules.get("gc") or _imp.create_builtin(BuiltinImporter.find_spec("gc")))
    return _gc[0]


_gc = []
