"""Keeps the bridge's own modules out of sys.modules while the program runs (SPEC §2: nothing
the bridge does is visible to the program).

`hide()` moves every `aiython_bridge` module from sys.modules to a private table right before
the program starts. Bridge code that imports lazily (inside a function, so that a run pays only
for what it reaches) does it with `load(name)`, never with an import statement: the import
system would not find a package it cannot see. `load` and `visible()` put the table back into
sys.modules only for the few milliseconds of such an import and hide it again. Threads that
load at once (several threads reaching their first AI block together) are counted: the table is
put back by the first and hidden by the last, so no import finds the package gone mid-way.

What stays visible: modules of the standard library that the bridge imports once the program
runs (json at the first AI block, enum for a type contract, …; the program would get the very
same module objects if it imported them), the finder of `import aiython` in
sys.path_importer_cache (program/public_module.py), and
`aiython` itself once the program imports it. What the bridge's start imports is gone by then:
it imports no Python module a bare interpreter's start has not, and START_EXTENSIONS leave
sys.modules as the program starts (drop_start_extensions).
Nor PREPARATION_STDLIB: the modules that only preparing a source with its checkpoints brings
in (parsing it; on 3.11 also reading its code objects for the bytecode checkpoints), nor those
preparation imports only when no one has (`adopt`: warnings, preparation/compiler_warnings.py).
The first hide() takes them out of sys.modules too, unless they were there before the bridge
(a .pth file, sitecustomize), and keeps them here: the bridge goes on using them (`stdlib(name)`,
and the modules that imported them hold them), and a program that imports one gets a fresh one
of its own, as under python3 (the AST node classes are the interpreter's, shared by both). A
visible() block puts them back while it lasts if the program has none, and takes out again
those it put back or that were imported during it.
"""

import _thread
import sys

__all__ = [
    "PACKAGE", "PREPARATION_STDLIB", "START_EXTENSIONS", "adopt", "after_fork_in_child",
    "drop_start_extensions", "hide", "load", "loaded", "stdlib", "visible",
]

PACKAGE = "aiython_bridge"
# ast, _ast, __future__: parsing; opcode, _opcode, bisect, _bisect: 3.11's bytecode checkpoints
PREPARATION_STDLIB = ("ast", "_ast", "__future__", "opcode", "_opcode", "bisect", "_bisect")
_BEFORE_BRIDGE = frozenset(name for name in PREPARATION_STDLIB if name in sys.modules)
_hidden = {}
_stdlib = {}  # PREPARATION_STDLIB modules the bridge imported, out of sys.modules since the first hide()
_adopted = []  # standard-library modules adopt() imported: kept out of sys.modules as PREPARATION_STDLIB
_absent = []  # PREPARATION_STDLIB names the program had not imported when the open visible() blocks began
_hiding = [False]
_depth = [0]  # visible() blocks open now, in any thread: only the last to end hides again
_depth_lock = _thread.allocate_lock()


def _ours(name):
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def hide():
    """From now on the bridge's modules live only here."""
    first = not _hiding[0]
    _hiding[0] = True
    for name in [name for name in sys.modules if _ours(name)]:
        _hidden[name] = sys.modules.pop(name)
    if first:
        _take_stdlib([name for name in PREPARATION_STDLIB if name not in _BEFORE_BRIDGE] + _adopted)


# Built-in and extension modules of the standard library that the bridge's start imports
# (json_codec.py's _json, boot.py's fcntl, program/host_messages.py's atexit, whose callbacks are the
# interpreter's, not the module object's, and _functools for the program's partial); the bridge
# keeps what it took from them.
START_EXTENSIONS = ("_json", "fcntl", "atexit", "_functools", "_operator", "_ctypes", "itertools")
# The standard-library module that imports each, if one does: CPython itself may import it before
# the program starts (showing a compiler warning imports functools on 3.13), and it keeps it then.
# (_operator and itertools: recovery/unseen.py; collections imports both.)
_IMPORTED_BY = {"_json": "json", "_functools": "functools", "_operator": "operator", "_ctypes": "ctypes", "itertools": "collections"}


def drop_start_extensions(present_at_start):
    """Takes START_EXTENSIONS out of sys.modules unless they were there when the bridge started
    (`present_at_start`): a program that imports one gets a module of its own, as under python3."""
    for name in START_EXTENSIONS:
        if name not in present_at_start and _IMPORTED_BY.get(name) not in sys.modules:
            sys.modules.pop(name, None)


def _import(name):
    """importlib.import_module(name) for an absolute name, without importing importlib (a bare
    interpreter's start has not: it would show in the program's sys.modules)."""
    __import__(name)
    return sys.modules[name]


def _take_stdlib(names):
    for name in names:
        module = sys.modules.pop(name, None)
        if module is not None:
            _stdlib[name] = module


class _Visible:
    """Counted, so that threads loading at once (blocks reached together, SPEC §8) and nested
    loads keep the modules visible until the last of them ends."""

    def __enter__(self):
        with _depth_lock:
            _depth[0] += 1
            if _hiding[0]:
                if _depth[0] == 1:
                    names = PREPARATION_STDLIB + tuple(_adopted)
                    _absent[:] = [name for name in names if name not in sys.modules and name not in _BEFORE_BRIDGE]
                    for name in _absent:
                        if name in _stdlib:
                            sys.modules[name] = _stdlib[name]
                sys.modules.update(_hidden)

    def __exit__(self, *exc_info):
        with _depth_lock:
            _depth[0] -= 1
            if _hiding[0] and _depth[0] == 0:
                hide()
                _take_stdlib(_absent)
        return False


def visible():
    """A `with` block during which the bridge's modules are in sys.modules again."""
    return _Visible()


def load(name):
    """The bridge module `name` (e.g. "aiython_bridge.pauses.pause"), imported on first use."""
    module = _hidden.get(name) if _hiding[0] else sys.modules.get(name)
    if module is not None:
        return module
    with visible():
        return _import(name)


def stdlib(name):
    """The standard-library module `name` for the bridge's own use: one of PREPARATION_STDLIB
    that the program has not imported is imported (or put back) only for the import, and stays
    out of sys.modules."""
    module = _stdlib.get(name) or sys.modules.get(name)
    if module is not None and not getattr(getattr(module, "__spec__", None), "_initializing", False):
        return module
    # Not imported, or another thread is importing it (blocks reached together): __import__ waits
    # for that import to end rather than handing out a module still being initialized.
    with visible():
        return _import(name)


def adopt(name):
    """stdlib(name) of a module that no one has imported (not in sys.modules now) and that only
    preparation needs: from now on it stays out of sys.modules as PREPARATION_STDLIB's do."""
    with _depth_lock:
        if name not in _adopted:
            _adopted.append(name)
        if _hiding[0] and _depth[0] > 0 and name not in _absent:
            _absent.append(name)
    return stdlib(name)


def loaded(name):
    """The bridge module `name` if something has imported it already, else None (never imports)."""
    return _hidden.get(name) if _hiding[0] else sys.modules.get(name)


def after_fork_in_child():
    """A forked child has only the forking thread: no other thread's visible() is open in it."""
    global _depth_lock
    _depth_lock = _thread.allocate_lock()
    _depth[0] = 0
    if _hiding[0]:
        hide()
