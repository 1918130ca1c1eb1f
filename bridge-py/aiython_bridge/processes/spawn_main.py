"""The parent's main module in a multiprocessing spawn or forkserver child (SPEC §8).

Such a child re-runs the parent's main script as `__mp_main__` with
`runpy.run_path(main_path)`, which compiles the file itself: a natural-language line would be a
SyntaxError there, and the module would run without its checkpoints. So a child started by the
launcher has, until that moment, one extra path hook: runpy asks the path hooks about the
script's path before it compiles, the hook answers for a project file with a finder whose
loader gives the code the parent runs (runner.prepare_code: the same plan, blocks and
checkpoints, an entry module), and removes itself. runpy then runs that code in a module made
as for a directory entry; spawned.py's audit hook puts back python3's globals (`__spec__` and
`__loader__` None) and sys.path before the module's first line runs.
"""

import os
import sys

from .. import modules, paths

__all__ = ["install"]


def install(server, options):
    root = options.get("project_root")
    hook = _MainHook(server, options, os.path.realpath(root) if root else None)
    sys.path_hooks.insert(0, hook)


class _MainHook:
    def __init__(self, server, options, project_root):
        self.server, self.options, self.project_root = server, options, project_root

    def __call__(self, entry):
        if not isinstance(entry, str) or not entry.endswith(".py") or not os.path.isfile(entry):
            raise ImportError("not a script")
        if not paths.is_project_path(os.path.realpath(entry), self.project_root):
            raise ImportError("not a project script")
        try:
            sys.path_hooks.remove(self)
        except ValueError:
            pass
        return _MainFinder(self, entry)


class _MainFinder:
    def __init__(self, hook, path):
        self.hook, self.path = hook, path

    def find_spec(self, name, target=None):
        if name != "__main__":
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec("__main__", _MainLoader(self.hook, self.path), origin=self.path)

    def invalidate_caches(self):
        pass


class _MainLoader:
    def __init__(self, hook, path):
        self.hook, self.path = hook, path

    def get_code(self, fullname):
        runner = modules.load("aiython_bridge.program.runner")
        prepared = runner.Prepared("file")
        prepared.options = self.hook.options
        with open(self.path, "rb") as f:
            source = f.read()
        with modules.visible():  # prepare_code imports what it needs as it goes
            code = runner.prepare_code(self.hook.server, prepared, source, self.path)
        modules.load("aiython_bridge.processes.spawned").expect_main(code, self.path)
        return code

    def is_package(self, fullname):
        return False
