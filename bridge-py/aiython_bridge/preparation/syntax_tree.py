"""The parts of the `ast` module that preparing a source uses (SPEC §4.1, §12 start-up), over
the interpreter's own node classes.

The node classes are `_ast`'s (a built-in module: what `ast` itself re-exports, so trees made
here and by `ast.parse` are the same objects); parse, walk, iter_fields, iter_child_nodes and
copy_location behave as `ast`'s do. Importing ast.py itself costs a configured start ~2.5 ms on
3.11 (its unparser, its helpers' classes), so it is loaded only for `unparse` (an annotation
written back as text), through modules.stdlib, which keeps it out of the program's sys.modules.

This module has no `from __future__` import: `parse` compiles with dont_inherit=True anyway, as
ast.parse gets no flags from ast.py.
"""

import _ast
from _ast import AST, PyCF_ONLY_AST

from aiython_bridge import modules

# The node classes and the PyCF_ flags, as `ast` has them (ast.py does `from _ast import *`), bound
# from _ast's namespace rather than by the star import itself, which would leave pyflakes unable
# to check this file. The names a star import binds are those not starting with "_": in _ast, all
# but the dunders every built-in module has (tests/test_syntax_tree.py checks it). Set and C
# builtins rather than a comprehension: this runs at every configured start.
_AST_NAMES = sorted(_ast.__dict__.keys() - {"__name__", "__doc__", "__package__", "__loader__", "__spec__"})
globals().update(zip(_AST_NAMES, map(_ast.__dict__.__getitem__, _AST_NAMES)))

__all__ = _AST_NAMES + ["copy_location", "iter_child_nodes", "iter_fields", "parse", "unparse", "walk"]

_POSITIONS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def parse(source, filename="<unknown>", mode="exec"):
    """ast.parse(source, filename, mode)."""
    return compile(source, filename, mode, PyCF_ONLY_AST, dont_inherit=True)


def iter_fields(node):
    """(name, value) of each field the node has, in _fields order."""
    for name in node._fields:
        try:
            yield name, getattr(node, name)
        except AttributeError:
            pass


def iter_child_nodes(node):
    """The node's direct children: fields that are nodes, and the nodes in fields that are lists."""
    for _, value in iter_fields(node):
        if isinstance(value, AST):
            yield value
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, AST):
                    yield item


def walk(node):
    """Every node under `node` (itself first), breadth first, in ast.walk's order."""
    pending, index = [node], 0
    while index < len(pending):
        current = pending[index]
        pending[index] = None  # let a visited node go as ast.walk's deque does
        index += 1
        pending.extend(iter_child_nodes(current))
        yield current


def copy_location(new_node, old_node):
    """`new_node` with old_node's position (an end position is copied even when it is None)."""
    for name in _POSITIONS:
        if name not in old_node._attributes or name not in new_node._attributes:
            continue
        value = getattr(old_node, name, None)
        if value is not None or (name.startswith("end_") and hasattr(old_node, name)):
            setattr(new_node, name, value)
    return new_node


def unparse(node):
    """ast.unparse(node): the one use of the ast module itself."""
    return modules.stdlib("ast").unparse(node)
