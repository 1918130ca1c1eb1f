"""Keeps the bridge's own modules out of sys.modules while the program runs (SPEC §2: nothing
the bridge does is visible to the program).

`hide()` moves every `aiython_bridge` module from sys.modules to a private table right before
the program starts. Bridge code that imports lazily (inside a function, so that a run pays only
for what it reaches) does it with `load(name)`, never with an import statement: the import
system would not find a package it cannot see. `load` and `visible()` put the table back into
sys.modules only for the few milliseconds of such an import and hide it again. Threads that
load at once (several threads reaching their first AI block together) are counted: the table is
put back by the first and hidden by the last, so no import finds the package gone mid-way.

What stays visible: modules of the standard library that the bridge imported (json, struct,
fcntl, …; the program would get the very same module objects if it imported them), the
finder of `import aiython` on sys.meta_path, and `aiython` itself once the program imports it.
"""

import _thread
import sys

PACKAGE = "aiython_bridge"
_hidden = {}
_hiding = [False]
_depth = [0]  # visible() blocks open now, in any thread: only the last to end hides again
_depth_lock = _thread.allocate_lock()


def _ours(name):
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def hide():
    """From now on the bridge's modules live only here."""
    _hiding[0] = True
    for name in [name for name in sys.modules if _ours(name)]:
        _hidden[name] = sys.modules.pop(name)


class _Visible:
    """Counted, so that threads loading at once (blocks reached together, SPEC §8) and nested
    loads keep the modules visible until the last of them ends."""

    def __enter__(self):
        with _depth_lock:
            _depth[0] += 1
            if _hiding[0]:
                sys.modules.update(_hidden)

    def __exit__(self, *exc_info):
        with _depth_lock:
            _depth[0] -= 1
            if _hiding[0] and _depth[0] == 0:
                hide()
        return False


def visible():
    """A `with` block during which the bridge's modules are in sys.modules again."""
    return _Visible()


def load(name):
    """The bridge module `name` (e.g. "aiython_bridge.pauses"), imported on first use."""
    module = _hidden.get(name) if _hiding[0] else sys.modules.get(name)
    if module is not None:
        return module
    import importlib

    with visible():
        return importlib.import_module(name)


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
