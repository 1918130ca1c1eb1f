"""Which paths are the program's source for the source guard (SPEC §9), and how a path in an
audit event is resolved.

Protected: files with a code suffix (anywhere: a new `.py` beside the program can shadow a
module; `.pth` files run at every interpreter start), every file of a project module the
process has loaded (whatever its suffix, the entry script included), `aiython.toml`, anything
inside a `.aiython` folder (the journal, the preparation cache), and anything in a
site-packages folder (the interpreter's, a virtual environment's, the user site). A folder is
protected as a whole (rename, rmdir) when it holds a protected file. Files in `__pycache__` are
CPython's bytecode cache: only the import system's own writes may change them (events.py).

Paths are resolved as the action would: relative to `dir_fd` (read back through /proc/self/fd)
or the working directory, symbolic links followed, so a link named `notes.txt` that points at
`main.py` is `main.py`. Resolution uses the `posix` functions taken here when the module loads,
never `os.path`: a tool that replaces `os.path.realpath` or `os.readlink` does not change what
the guard sees.
"""

from __future__ import annotations

import posix
import sys
import types

from .. import paths

__all__ = [
    "BYTECODE_DIR", "CODE_SUFFIXES", "CONFIG_NAME", "FOLDER_SCAN_LIMIT", "PACKAGE_DIRS", "STATE_DIR", "decode",
    "file_reason", "harmless_write", "in_bytecode_cache", "is_folder", "linked_to_protected", "module_files",
    "name_of", "names_state", "resolve", "shown", "why_protected",
]

CODE_SUFFIXES = frozenset((
    ".py", ".pyi", ".pyw", ".pyx", ".pxd", ".pxi", ".pth", ".ipynb", ".sh", ".bash", ".zsh", ".fish", ".c",
    ".h", ".cc", ".cpp", ".hpp", ".rs", ".go", ".java", ".kt", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx",
    ".rb", ".pl", ".php", ".lua", ".swift", ".cs", ".so", ".dylib",
))
CONFIG_NAME = "aiython.toml"
STATE_DIR = ".aiython"
BYTECODE_DIR = "__pycache__"
PACKAGE_DIRS = frozenset(("site-packages", "dist-packages"))
FOLDER_SCAN_LIMIT = 5000  # entries looked at before a folder is taken to hold source

_lstat, _stat, _readlink, _getcwd, _fspath = posix.lstat, posix.stat, posix.readlink, posix.getcwd, posix.fspath
_S_IFMT, _S_IFLNK, _S_IFDIR = 0o170000, 0o120000, 0o040000


def decode(path) -> str:
    text = _fspath(path)
    if type(text) is bytes:
        text = text.decode(sys.getfilesystemencoding(), "surrogateescape")
    if type(text) is not str:
        raise TypeError("not a path")
    return text


def _real(path: str) -> str:
    """os.path.realpath for an absolute path, from posix calls only (missing parts kept as written)."""
    parts = [part for part in path.split("/") if part and part != "."]
    resolved: list[str] = []
    hops = 0
    while parts:
        part = parts.pop(0)
        if part == "..":
            if resolved:
                resolved.pop()
            continue
        candidate = "/" + "/".join(resolved + [part])
        try:
            mode = _lstat(candidate).st_mode
        except OSError:
            resolved.append(part)
            continue
        if mode & _S_IFMT != _S_IFLNK:
            resolved.append(part)
            continue
        hops += 1
        if hops > 40:
            raise OSError("too many links")
        target = _readlink(candidate)
        if target.startswith("/"):
            resolved = []
        parts[:0] = [p for p in target.split("/") if p and p != "."]
    return "/" + "/".join(resolved)


def resolve(path, dir_fd=None) -> str | None:
    """The real path an audit event's path argument names, or None when it cannot be told."""
    try:
        if type(path) is int:
            return _readlink(f"/proc/self/fd/{path}")
        text = decode(path)
        if not text.startswith("/"):
            base = _readlink(f"/proc/self/fd/{dir_fd}") if type(dir_fd) is int and dir_fd >= 0 else _getcwd()
            text = base.rstrip("/") + "/" + text
        return _real(text)
    except (OSError, TypeError, ValueError):
        return None


def names_state(path) -> bool:
    """The path as written mentions a state folder (a cheap test before resolving it)."""
    try:
        return STATE_DIR in decode(path)
    except (TypeError, ValueError):
        return False


def name_of(path) -> str:
    """The file name as written in the event (for when the path cannot be resolved)."""
    try:
        return decode(path).rstrip("/").rpartition("/")[2]
    except (TypeError, ValueError):
        return ""


def shown(watch, target: str | None, path) -> str:
    """The path as a message shows it: relative to the project when inside it."""
    if target is None:
        return repr(name_of(path) or path)
    root = watch.project_root
    if root and target.startswith(root.rstrip("/") + "/"):
        return target[len(root.rstrip("/")) + 1:]
    return target


def in_bytecode_cache(target: str | None) -> bool:
    return target is not None and target.rpartition("/")[0].rpartition("/")[2] == BYTECODE_DIR


def is_folder(target: str | None) -> bool:
    try:
        return target is not None and _stat(target).st_mode & _S_IFMT == _S_IFDIR
    except OSError:
        return False


def why_protected(watch, target: str | None, path, *, folder: bool = False) -> str | None:
    """Why the path is the program's source, or None."""
    name = target.rpartition("/")[2] if target is not None else name_of(path)
    reason = file_reason(watch, target, name)
    if reason is None and folder and is_folder(target):
        reason = _folder_reason(watch, target)
    return reason


def file_reason(watch, target: str | None, name: str) -> str | None:
    if name == CONFIG_NAME:
        return "aiython's configuration"
    parts = target.split("/") if target is not None else ()
    if STATE_DIR in parts:
        return "aiython's project state"
    if in_bytecode_cache(target):
        return "CPython's bytecode cache"
    if PACKAGE_DIRS.intersection(parts):
        return "an installed package"
    dot = name.rfind(".")
    if dot > 0 and name[dot:].lower() in CODE_SUFFIXES:
        return "a source file"
    if target is not None and target in module_files(watch):
        return "a project module"
    return None


def _folder_reason(watch, folder: str) -> str | None:
    prefix = folder.rstrip("/") + "/"
    if any(f.startswith(prefix) for f in module_files(watch)):
        return "a folder holding project modules"
    seen = 0
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            entries = posix.listdir(current)
        except OSError:
            continue
        for name in entries:
            seen += 1
            if seen > FOLDER_SCAN_LIMIT:
                return "a folder too large to check for source files"
            child = current.rstrip("/") + "/" + name
            if name != BYTECODE_DIR and is_folder(child):
                pending.append(child)
            elif file_reason(watch, child, name) is not None and name != BYTECODE_DIR:
                return "a folder holding source files"
    return None


def module_files(watch) -> frozenset[str]:
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
            if type(filename) is str and filename.startswith("/"):
                real = _real(filename)
                if paths.is_project_path(real, watch.project_root):
                    found.add(real)
        watch.module_files = frozenset(found)
    return watch.module_files


def linked_to_protected(watch, target: str | None) -> bool:
    """A file with more than one name (a hard link) that is also one of the project's modules:
    writing it writes the module, whatever this name says."""
    try:
        info = _stat(target)
    except (OSError, TypeError):
        return False
    if info.st_nlink < 2:
        return False
    key = (info.st_dev, info.st_ino)
    for module in module_files(watch):
        try:
            other = _stat(module)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == key:
            return True
    return False


def harmless_write(target: str | None) -> bool:
    """Writes that need no write_filesystem permission: devices (/dev/null…)."""
    return target is not None and target.startswith("/dev/")
