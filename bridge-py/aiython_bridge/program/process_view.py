"""What the program sees of how it was started, made exactly python3's (SPEC §2): sys.argv,
sys.orig_argv, sys.path[0] and __main__'s namespace, for each kind of target.

The interpreter was started on the boot script (start/importlib_bootstrap.py), so CPython put
that script's folder at sys.path[0] (unless -P or -I) and filled __main__ as for a script; the
boot script put bridge-py/ before it. Both entries are removed here, and what python3 would
have put in their place is put there instead:

| target | sys.path[0] (not under -P) | __main__ |
| --- | --- | --- |
| file | the script's real folder | `__file__`, `__cached__` None, a SourceFileLoader (SourcelessFileLoader for a .pyc) |
| directory / zip | the path (also under -P: it holds `__main__`) | runpy's |
| -m module | the working directory | runpy's |
| -c code | "" | no `__file__`; BuiltinImporter as `__loader__` |
| stdin | "" | `__file__` "<stdin>", `__cached__` None |
| console | "" | as for -c; sys.argv `['']`, sys.orig_argv the interpreter alone |
"""

import os
import sys

__all__ = ["BOOT_DIR", "BRIDGE_TOP", "set_process_view"]

# bridge-py/: this file is bridge-py/aiython_bridge/program/process_view.py.
BRIDGE_TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
BOOT_DIR = os.path.join(BRIDGE_TOP, "aiython_bridge", "start")


def set_process_view(kind, target, message, compiled=False):
    args = list(message.get("argv", []))
    sys.orig_argv = [sys.orig_argv[0]] + list(message["orig_argv"])  # python3's, options included
    _drop_bridge_paths()
    safe_path = getattr(sys.flags, "safe_path", False)
    if kind == "file":
        path = target["path"]
        sys.argv = [path] + args
        _main_namespace(file=os.path.abspath(path), compiled=compiled)
        if not safe_path:
            sys.path.insert(0, os.path.dirname(os.path.realpath(path)))
    elif kind == "directory":
        sys.argv = [target["path"]] + args
        sys.path.insert(0, os.path.abspath(target["path"]))
    elif kind == "console":
        sys.argv = [""]
        sys.orig_argv = sys.orig_argv[:1]
        _main_namespace(file=None)
        if not safe_path:
            sys.path.insert(0, "")
    elif kind == "module":
        sys.argv = ["-m"] + args
        if not safe_path:
            sys.path.insert(0, os.getcwd())
    else:
        # python3 reading a program piped in without `-` names it "" (with `-`: "-").
        sys.argv = ["-c" if kind == "code" else ("" if target.get("unnamed") else "-")] + args
        _main_namespace(file=None if kind == "code" else "<stdin>")
        if not safe_path:
            sys.path.insert(0, "")


def _drop_bridge_paths():
    for entry in (BRIDGE_TOP, BOOT_DIR):
        if sys.path and os.path.realpath(sys.path[0] or ".") == entry:
            del sys.path[0]


def _main_namespace(file, compiled=False):
    """__main__'s namespace as CPython fills it, in its order, for a script (`file` a path; a
    .pyc when `compiled`), stdin ("<stdin>") or -c (None)."""
    try:  # the classes importlib.machinery names, without importing it (python3 has not)
        from _frozen_importlib import BuiltinImporter
        from _frozen_importlib_external import SourceFileLoader, SourcelessFileLoader
    except ImportError:
        from importlib.machinery import BuiltinImporter, SourceFileLoader, SourcelessFileLoader

    main_dict = sys.modules["__main__"].__dict__
    builtins_module = main_dict["__builtins__"]
    script = file is not None and file != "<stdin>"
    main_dict.clear()
    main_dict.update(
        __name__="__main__", __doc__=None, __package__=None,
        __loader__=(SourcelessFileLoader if compiled else SourceFileLoader)("__main__", file) if script else BuiltinImporter,
        __spec__=None, __annotations__={}, __builtins__=builtins_module,
    )
    if file is not None:
        main_dict.update(__file__=file, __cached__=None)
