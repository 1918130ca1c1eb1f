"""Which paths are the program's source for the source guard (SPEC §9), and how a path in an
audit event is resolved.

Protected: files with a code suffix (anywhere: a new `.py` beside the program can shadow a
module), every file of a project module the process has loaded (whatever its suffix, the entry
script included), `aiython.toml`, and anything inside a `.aiython` folder. A folder is
protected as a whole (rename, rmdir) when it holds a protected file. CPython's own bytecode
cache (`__pycache__/*.pyc` and importlib's temporary files there) is never protected.

Paths are resolved as the action would: relative to `dir_fd` (read back through /proc/self/fd)
or the working directory, symbolic links followed, so a link named `notes.txt` that points at
`main.py` is `main.py`.
"""

from __future__ import annotations

import os
import sys
import types

from .. import paths

__all__ = [
    "CODE_SUFFIXES", "CONFIG_NAME", "FOLDER_SCAN_LIMIT", "STATE_DIR", "harmless_write", "resolve",
    "shown", "why_protected",
]

CODE_SUFFIXES = frozenset((
    ".py", ".pyi", ".pyw", ".pyx", ".pxd", ".pxi", ".ipynb", ".sh", ".bash", ".zsh", ".fish", ".c", ".h",
    ".cc", ".cpp", ".hpp", ".rs", ".go", ".java", ".kt", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".rb",
    ".pl", ".php", ".lua", ".swift", ".cs",
))
CONFIG_NAME = "aiython.toml"
STATE_DIR = ".aiython"
FOLDER_SCAN_LIMIT = 5000  # entries looked at before a folder is taken to hold source


def resolve(path, dir_fd=None) -> str | None:
    """The real path an audit event's path argument names, or None when it cannot be told."""
    try:
        if type(path) is int:
            return os.readlink(f"/proc/self/fd/{path}")
        text = os.fsdecode(os.fspath(path))
        if not os.path.isabs(text):
            base = os.readlink(f"/proc/self/fd/{dir_fd}") if type(dir_fd) is int and dir_fd >= 0 else os.getcwd()
            text = os.path.join(base, text)
        return os.path.realpath(text)
    except (OSError, TypeError, ValueError):
        return None


def _name_of(path) -> str:
    """The file name as written in the event (for when the path cannot be resolved)."""
    try:
        return os.path.basename(os.fsdecode(os.fspath(path)))
    except (TypeError, ValueError):
        return ""


def shown(watch, target: str | None, path) -> str:
    if target is None:
        return repr(_name_of(path) or path)
    return paths.display_path(target, watch.project_root)


def why_protected(watch, target: str | None, path, *, folder: bool = False) -> str | None:
    """Why the path is the program's source, or None."""
    name = os.path.basename(target) if target is not None else _name_of(path)
    if target is not None and _in_bytecode_cache(target):
        return None
    reason = _file_reason(watch, target, name)
    if reason is None and folder and target is not None and os.path.isdir(target):
        reason = _folder_reason(watch, target)
    return reason


def _file_reason(watch, target: str | None, name: str) -> str | None:
    if name == CONFIG_NAME:
        return "aiython's configuration"
    if target is not None and STATE_DIR in target.split(os.sep):
        return "aiython's project state"
    if os.path.splitext(name)[1].lower() in CODE_SUFFIXES:
        return "a source file"
    if target is not None and target in _module_files(watch):
        return "a project module"
    return None


def _folder_reason(watch, folder: str) -> str | None:
    prefix = folder.rstrip(os.sep) + os.sep
    if any(f.startswith(prefix) for f in _module_files(watch)):
        return "a folder holding project modules"
    seen = 0
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files + dirs:
            seen += 1
            if seen > FOLDER_SCAN_LIMIT:
                return "a folder too large to check for source files"
            if _file_reason(watch, os.path.join(root, name), name) is not None:
                return "a folder holding source files"
    return None


def _module_files(watch) -> frozenset[str]:
    """Real paths of the files of the project's loaded modules (computed once per operation)."""
    if watch.module_files is None:
        found = set()
        for module in list(sys.modules.values()):
            if not isinstance(module, types.ModuleType):
                continue
            try:
                filename = dict.get(module.__dict__, "__file__")
            except Exception:
                continue
            if type(filename) is str and filename:
                real = os.path.realpath(filename)
                if paths.is_project_path(real, watch.project_root):
                    found.add(real)
        watch.module_files = frozenset(found)
    return watch.module_files


def _in_bytecode_cache(target: str) -> bool:
    parent = os.path.basename(os.path.dirname(target))
    return parent == "__pycache__" and ".pyc" in os.path.basename(target)


def harmless_write(target: str | None) -> bool:
    """Writes that need no write_filesystem permission: devices (/dev/null…) and CPython's bytecode cache."""
    return target is not None and (target.startswith("/dev/") or _in_bytecode_cache(target))
