"""Whose code a file is (SPEC §4.1 "project modules"): the one rule every part of the bridge asks.

Project code is a real path inside the project root, outside site-packages / dist-packages, the
active virtual environment, the standard library and the bridge's own folders. Without a project
root nothing is project code (the host always sends one in the run options when a model is
configured, and only then do recovery, the import hook and frame operations run).

Users: the import hook (which imported modules go through the frontend), recovery (whose frames a
failure may be recovered in, whose handlers see it first, whether a retry would replay another
project function), the frame operations (the origin frame, the frames listed to the model) and
every place that shows a file name to the model (`display_path`).

`kind` classifies a code object's file name once per (project root, file name) and caches it:
frame walks ask for the same files over and over. The cache is keyed by the root too because a
process may build several decision sources (tests do) and the answer depends on it. `real_path`
remembers the real path of an absolute one for the same reason (every pause names its file and
the project root, and resolving them costs a dozen lstat calls each time).
"""

from __future__ import annotations

import os
import sys

__all__ = [
    "BRIDGE", "BRIDGE_DIRS", "LIBRARY", "NO_SOURCE", "PROJECT", "STDLIB_DIR", "display_path",
    "is_project_path", "kind", "real_path", "under",
]

# bridge-py/aiython_bridge (this package) and bridge-py/aiython (the public `import aiython`).
BRIDGE_DIRS = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), name)
                    for name in ("aiython_bridge", "aiython"))
STDLIB_DIR = os.path.dirname(os.path.realpath(os.__file__))
PROJECT, LIBRARY, BRIDGE, NO_SOURCE = "project", "library", "bridge", "none"

_kinds: dict[tuple[str | None, str], str] = {}
_real_paths: dict[str, str] = {}
_display: dict[tuple[str, str], str] = {}


def real_path(path: str) -> str:
    """os.path.realpath, remembered for absolute paths (a relative one depends on the cwd)."""
    if not os.path.isabs(path):
        return os.path.realpath(path)
    found = _real_paths.get(path)
    if found is None:
        found = _real_paths[path] = os.path.realpath(path)
    return found


def under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def is_project_path(path: str, project_root: str | None) -> bool:
    """A real path inside the project, outside site-packages, the active venv and the stdlib (§4.1)."""
    if not project_root or not under(path, project_root):
        return False
    if any(part in ("site-packages", "dist-packages") for part in path.split(os.sep)):
        return False
    if sys.prefix != sys.base_prefix and under(path, os.path.realpath(sys.prefix)):
        return False
    return not under(path, STDLIB_DIR) and not any(under(path, d) for d in BRIDGE_DIRS)


def kind(filename: str, project_root: str | None) -> str:
    """PROJECT, LIBRARY, BRIDGE or NO_SOURCE for a code object's file name; `project_root` is a
    real path (or None)."""
    key = (project_root, filename)
    found = _kinds.get(key)
    if found is None:
        if filename.startswith("<frozen "):
            found = LIBRARY  # a frozen standard module (3.11+): its source is read via __file__
        elif not filename or filename.startswith("<"):
            found = NO_SOURCE
        else:
            path = real_path(filename)
            if any(under(path, d) for d in BRIDGE_DIRS):
                found = BRIDGE
            else:
                found = PROJECT if is_project_path(path, project_root) else LIBRARY
        _kinds[key] = found
    return found


def display_path(filename: str, project_root: str | None) -> str:
    """``filename`` relative to the project root when it lies inside it (remembered for absolute
    file names, as real_path is: each pause shows its file)."""
    if not (project_root and filename and not filename.startswith("<")):
        return filename
    key = (project_root, filename)
    found = _display.get(key)
    if found is None:
        path = real_path(filename)
        found = os.path.relpath(path, project_root) if under(path, project_root) else filename
        if os.path.isabs(filename):
            _display[key] = found
    return found
