"""Project modules through the frontend (SPEC §4.1): AI blocks and checkpoints in imported modules.

Installed by the runner only when a model is configured, or `type_contracts = "all"` is set
(then, without a model, a module is never planned: one that does not compile gets CPython's
SyntaxError, as under python3). A path hook, first on sys.path_hooks,
answers for the folders that are project code (under `options["project_root"]`, outside
site-packages, the active virtual environment, the standard library and the bridge) with
importlib's own FileFinder whose source loader is ProjectLoader; every other folder gets
CPython's own finder. So the search is CPython's, no bridge code runs for an import that is not
a project module's, and a project module's loading is the only bridge code an import runs.

ProjectLoader.get_code sends the host the bridge→host request (docs/protocol.md)

    {"type": "plan", "id": "b<N>", "path": <absolute source path>, "source": <decoded text>,
     "module": <full module name>, "entry": false}

and expects `{"type": "result", "id", "ok": true, "value": <Plan or null>}`. A Plan is the
frontend's (src/frontend/plan.ts): `rewritten` (null when the module has no block),
`runtimeName`, `blocks`, `diagnostics` (docs/protocol.md, "Plan").
- null, or no channel (a forked child): the module is compiled exactly as CPython would (its
  SyntaxError included);
- `ok: false` with `plan_error` (a malformed directive), or diagnostics: a SyntaxError, raised
  by the import;
- otherwise the rewritten source (or the original) is compiled with its nested checkpoints,
  which the bridge selects on it as on any module (never the module's top-level statements:
  they run once, inside the importer's `import` statement, which is a checkpoint of its own),
  and the module's own block Runtime.
ProjectModules.code_for hands all of it to prepare.py, which keeps the result in
the preparation cache: a module unchanged since an earlier run is neither parsed nor planned.

The module's plain bytecode is cached in __pycache__ as python3 caches it (ProjectLoader); the
instrumented code is never written there, where a later plain `python3` run would find it.

This module is preparation's rather than recovery/'s: it is SPEC §4.1's project-modules rule,
installed whenever a model is configured, and serves AI blocks as much as checkpoints (a
module with blocks and no checkpoints gets a block Runtime and never asks for the
CheckpointRuntime). Which files are project code is paths.py's rule, shared with recovery.
"""

from __future__ import annotations

import _imp
import io
import os
import sys
from _functools import partial  # functools.partial itself, without functools and what it imports
import _frozen_importlib_external as _bootstrap_external  # importlib._bootstrap_external itself
# importlib.machinery's names, from where it takes them: importing it would put it in sys.modules
_m = _bootstrap_external
BYTECODE_SUFFIXES, EXTENSION_SUFFIXES, SOURCE_SUFFIXES = _m.BYTECODE_SUFFIXES, _m.EXTENSION_SUFFIXES, _m.SOURCE_SUFFIXES
ExtensionFileLoader, FileFinder, SourceFileLoader, SourcelessFileLoader = (
    _m.ExtensionFileLoader, _m.FileFinder, _m.SourceFileLoader, _m.SourcelessFileLoader)

from .. import modules, paths
from ..recovery.unseen import QUIETLY

__all__ = ["ProjectLoader", "ProjectModules", "install"]


class ProjectModules:
    """The run's project modules: a path hook that gives project folders a FileFinder whose
    source loader is ProjectLoader, and the compiling of one module from its plan."""

    def __init__(self, server, options: dict):
        self.server = server
        self.options = options
        root = options.get("project_root")
        self.project_root = os.path.realpath(root) if root else None
        source_loader = partial(ProjectLoader, modules=self)
        self._loaders = [(ExtensionFileLoader, EXTENSION_SUFFIXES), (source_loader, SOURCE_SUFFIXES),
                         (SourcelessFileLoader, BYTECODE_SUFFIXES)]  # importlib's own order

    def path_hook(self, entry):
        """sys.path_hooks: a FileFinder with ProjectLoader for a project folder; for any other
        entry, ImportError (the next hook, CPython's own, takes it)."""
        if not QUIETLY.run((self.is_project_folder, entry)):
            raise ImportError("not a project folder")
        return FileFinder(entry, *self._loaders)

    def is_project_folder(self, entry) -> bool:
        if not isinstance(entry, str):
            return False
        folder = os.path.realpath(entry or os.getcwd())
        return os.path.isdir(folder) and paths.is_project_path(folder, self.project_root)

    # ---- compiling one module ----

    def code_for(self, data: bytes, path: str, fullname: str, plain=None, stat=None):
        """A module that parses gets the checkpoints the bridge selects itself; only one that does
        not (an AI block, perhaps) is planned by the host; either comes from the preparation cache
        when it holds it (prepare.py). `plain`: CPython's own compile of `data`, if
        its loader just made one (on 3.11 the checkpoints are added to it)."""
        code = None
        sources = getattr(self.server, "imported_sources", None)
        if sources is not None:
            sources.append(path)  # the journal's digests (SPEC §11.2), sent with the next pause
        if os.getpid() == self.server.pid and not self.server.exiting:  # a forked child: the parent's channel
            prepare = modules.load("aiython_bridge.preparation.prepare")
            code = prepare.module_code(self.server, self.options, data, path, lambda text: self._plan(text, path, fullname),
                                       plain=plain, stat=stat)
        return code if code is not None else compile(data, path, "exec", dont_inherit=True)

    def cached_code_for(self, data, path: str, stat=None):
        """The module's code if the preparation cache holds it, else None (nothing prepared).
        `data` None: the source is not read, the cache's index must know it at `stat`."""
        if os.getpid() != self.server.pid or self.server.exiting:
            return None
        prepare = modules.load("aiython_bridge.preparation.prepare")
        if data is None:
            code = prepare.indexed_module_code(self.server, self.options, path, stat)
        else:
            code = prepare.cached_module_code(self.server, self.options, data, path, stat)
        sources = getattr(self.server, "imported_sources", None)
        if code is not None and sources is not None:
            sources.append(path)  # the journal's digests (SPEC §11.2), sent with the next pause
        return code

    def _plan(self, text: str, path: str, fullname: str):
        if not self.options.get("model_configured") and self.options.get("type_contracts") == "all":
            return None  # installed for type contracts alone: CPython's own compile, and its SyntaxError
        try:
            reply = self.server.request({"type": "plan", "path": path, "source": text, "module": fullname, "entry": False})
        except OSError:
            return None
        if not isinstance(reply, dict):
            return None
        if not reply.get("ok"):
            error = reply.get("error") or {}
            if error.get("type") == "plan_error":  # e.g. a malformed directive: the import fails
                raise SyntaxError(str(error.get("message")), (path, 1, 1, None))
            return None
        plan = reply.get("value")
        return plan if isinstance(plan, dict) else None


class ProjectLoader(SourceFileLoader):
    """SourceFileLoader whose code is the checkpointed (or planned) one.

    CPython's own get_code still runs first, for what it leaves on disk: the module's plain
    bytecode in __pycache__, written or refreshed exactly as python3 would (so a later plain run
    finds it), and the SyntaxWarnings its compile shows. Its code object is not the one run, so
    when the bytecode there is current (nothing to write, nothing compiled) it is not called, nor
    under -B or PYTHONDONTWRITEBYTECODE when the preparation cache holds the module (it would
    write nothing, and an entry whose compile warns is compiled again for its warnings): sympy as
    project code compiled its 450 modules on every run for nothing."""

    def __init__(self, fullname, path, *, modules):
        super().__init__(fullname, path)
        self._modules = modules
        self._compiled = None

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        self._compiled = None
        stat = _stat(path)  # before the source is read: the cache's index records the two together
        # Under -v, CPython's loader says what it found ("matches", "code object from"): as python3.
        verbose, current = sys.flags.verbose, None
        if stat is not None and not verbose:
            if not sys.dont_write_bytecode:
                current = QUIETLY.run((self._bytecode_current, fullname, path, stat))
            if sys.dont_write_bytecode or current:  # nothing for CPython's get_code to write
                code = QUIETLY.run((self._modules.cached_code_for, None, path, stat))
                if code is not None:
                    return code
        data = self.get_data(path)
        if sys.dont_write_bytecode and not verbose:
            code = QUIETLY.run((self._modules.cached_code_for, data, path, stat))
            if code is not None:
                return code
        if current is None and not verbose and stat is not None:
            current = QUIETLY.run((self._bytecode_current, fullname, path, stat))
        if verbose or not current:
            try:
                SourceFileLoader.get_code(self, fullname)
            except (SyntaxError, ValueError):
                pass  # no bytecode for python3 either; the plan may have the module's AI blocks
        compiled, self._compiled = self._compiled, None
        plain = compiled[1] if compiled is not None and compiled[0] == data else None
        return QUIETLY.run((self._modules.code_for, data, path, fullname, plain, stat))

    def source_to_code(self, data, path, *, _optimize=-1):
        """CPython's compile of the source, kept for get_code: the plain code the checkpoints
        can be added to (never one read from __pycache__, which may not match the source)."""
        code = super().source_to_code(data, path, _optimize=_optimize)
        if _optimize == -1:
            self._compiled = (data, code)
        return code

    def _bytecode_current(self, fullname, path, stat) -> bool:
        """Whether the module's __pycache__ file is one CPython's get_code would use as it is
        (the checks of its header, by importlib's own functions): then get_code would write
        nothing, and its code object (unmarshalled for nothing) is not needed. Only the 16-byte
        header is read. Anything unexpected (a later Python without these functions included)
        is "not current": CPython's get_code then decides, as before."""
        external = _bootstrap_external
        try:
            bytecode_path = external.cache_from_source(path)
            with io.open_code(bytecode_path) as f:
                header = f.read(16)
            details = {"name": fullname, "path": bytecode_path}
            flags = external._classify_pyc(header, fullname, details)
            if not flags & 0b1:
                external._validate_timestamp_pyc(header, int(stat.st_mtime), stat.st_size, fullname, details)
            elif _imp.check_hash_based_pycs != "never" and (flags & 0b10 or _imp.check_hash_based_pycs == "always"):
                source_hash = _imp.source_hash(external._RAW_MAGIC_NUMBER, self.get_data(path))
                external._validate_hash_pyc(header, source_hash, fullname, details)
        except (ImportError, EOFError, OSError, NotImplementedError, KeyError, AttributeError):
            return False
        return True


# What CPython's tools print of a project module's loader (`python -m inspect -d`, its repr,
# `type(module.__loader__).__name__`) names the class it stands in for (SPEC §2); it is one.
ProjectLoader.__module__ = SourceFileLoader.__module__
ProjectLoader.__name__ = ProjectLoader.__qualname__ = SourceFileLoader.__name__


def _stat(path):
    try:
        return os.stat(path)
    except OSError:
        return None


def install(server, options: dict) -> ProjectModules | None:
    """Put the project path hook first on sys.path_hooks (needs a project root) and drop the
    cached finders of project folders, so that they are found again through it."""
    if not options.get("project_root"):
        return None
    project = ProjectModules(server, options)
    sys.path_hooks.insert(0, project.path_hook)
    for entry in [entry for entry in sys.path_importer_cache if project.is_project_folder(entry)]:
        del sys.path_importer_cache[entry]
    return project
