"""Spawned interpreters start with the bridge in them (SPEC §8), through one audit hook.

An audit hook cannot be seen or removed by the program, and it is the only place CPython tells
a process, before the fact, that it is about to start a program or import a module:

- `subprocess.Popen`: when the executable is this interpreter and its argv runs a project file
  (`python [OPTIONS] FILE ARGS`), the boot script and the run folder are put in front of FILE,
  in the argv list subprocess is about to execute (the program's own `Popen.args` is a
  different list and stays as written). Any other subprocess (`env`, a shell, python3 on a file
  outside the project, `-c`, `-m`) starts exactly as under python3: nothing of the run is in its
  argv or environment.
- `import` of `multiprocessing.spawn`: its executable becomes the run folder's launcher
  (start/launcher, linked there as `python`), which execs this interpreter on the boot script
  for multiprocessing's spawn and forkserver children. The module is imported there and then,
  right where it was about to be. `multiprocessing.spawn.get_executable()` names the launcher:
  the one trace a program could find (README, Known differences).
- `exec` of the code of a multiprocessing child's main module (spawn_main.py): the globals
  runpy gave it are made python3's before its first line runs.

With no model configured the hook is installed only when the program first uses the mailbox
(`group()` / `join()`, whose peers may be spawned processes; `ensure_installed`), and then only
for multiprocessing: until then spawned interpreters are python3's own, and any `subprocess`
always is (a script with a syntax error gets CPython's SyntaxError, never an AI block), and the
program's audited events cost nothing more than under python3.
"""

import os
import sys

from .. import paths
from . import current_server, run_folder

__all__ = ["BOOT", "ensure_installed", "expect_main", "install", "script_index"]

BOOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "start", "importlib_bootstrap.py")


class _State:
    server = None
    project_root = None
    installed = False
    subprocesses = False  # rewrite the argv of subprocesses of this interpreter (model configured)
    importing_spawn = False
    main = None  # (code, path) of the multiprocessing child's main module, until it runs


def install(server, options):
    _State.server = server
    root = options.get("project_root")
    _State.project_root = os.path.realpath(root) if root else None
    if options.get("model_configured"):
        _State.subprocesses = True
        ensure_installed()


def ensure_installed():
    """The hook, from now on (once); multiprocessing already imported gets the launcher now."""
    _State.server = _State.server or current_server()
    if _State.installed or _State.server is None:
        return
    _State.installed = True
    sys.addaudithook(_hook)
    if "multiprocessing.spawn" in sys.modules:
        _point_at_launcher(sys.modules["multiprocessing.spawn"])


def expect_main(code, path):
    _State.main = (code, path)


def _hook(event, args):
    try:
        if event == "exec":
            if _State.main is not None and args[0] is _State.main[0]:
                _settle_main()
        elif event == "import":
            if args[0] == "multiprocessing.spawn" and not _State.importing_spawn:
                _use_launcher()
        elif event == "subprocess.Popen":
            _rewrite_argv(*args)
    except Exception:  # noqa: BLE001 - the hook must never change what the program sees
        pass


def _use_launcher():
    _State.importing_spawn = True
    try:
        __import__("multiprocessing.spawn")
    finally:
        _State.importing_spawn = False
    _point_at_launcher(sys.modules["multiprocessing.spawn"])


def _point_at_launcher(spawn):
    current = spawn.get_executable()
    if current is None or os.fsdecode(current) != sys.executable:
        return  # the program (or a frozen build) chose its own
    folder = run_folder(_State.server)
    if folder is not None:
        spawn.set_executable(os.path.join(folder.path, "python"))


def _rewrite_argv(executable, argv, cwd, env):
    if not _State.subprocesses or not isinstance(argv, list) or len(argv) < 2 or not _this_interpreter(executable):
        return
    index = script_index(argv)
    if index is None:
        return
    script = os.fsdecode(argv[index])
    full = os.path.realpath(os.path.join(os.fsdecode(cwd) if cwd else os.getcwd(), script))
    if not os.path.isfile(full) or not paths.is_project_path(full, _State.project_root):
        return
    folder = run_folder(_State.server)
    if folder is not None:
        argv[index:index] = [BOOT, folder.path]


def _this_interpreter(executable):
    path = os.fsdecode(executable)
    return os.sep in path and os.path.realpath(path) == os.path.realpath(sys.executable)


def script_index(argv):
    """Where the script is in `python [OPTIONS] SCRIPT ARGS`, or None (-c, -m, stdin, none)."""
    i = 1
    while i < len(argv):
        arg = os.fsdecode(argv[i])
        if arg == "--":
            return i + 1 if i + 1 < len(argv) else None
        if not arg.startswith("-"):
            return i
        if arg == "-" or (arg.startswith("--") and arg != "--check-hash-based-pycs"):
            return None  # stdin, --help, --version
        if arg == "--check-hash-based-pycs":
            i += 2
            continue
        for at, letter in enumerate(arg[1:], start=1):
            if letter in "cm":
                return None
            if letter in "WX":
                i += at == len(arg) - 1  # its value is the next argument
                break
        i += 1
    return None


def _settle_main():
    """runpy ran the main module through spawn_main.py's finder: take back what that added."""
    code, path = _State.main
    _State.main = None
    module = sys.modules.get("__mp_main__")
    if module is not None:
        module.__dict__["__spec__"] = None
        module.__dict__["__loader__"] = None
    if sys.path and sys.path[0] == path:
        del sys.path[0]  # runpy's own removal afterwards finds nothing and says nothing
    sys.path_importer_cache.pop(path, None)
