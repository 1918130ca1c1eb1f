"""Spawned interpreters start with the bridge in them (SPEC §8), through one audit hook.

An audit hook cannot be seen or removed by the program, and it is the only place CPython tells
a process, before the fact, that it is about to start a program or import a module:

- `subprocess.Popen`: when the executable is this interpreter and its argv runs a project file
  (`python [OPTIONS] FILE ARGS`, or `-m MODULE` whose file is certainly a project file), the
  boot script and the run folder are put in front of FILE (or `-m`), in the argv list
  subprocess is about to execute (the program's own `Popen.args` is a different list and stays
  as written). A shell's `-c` command (shell=True, `sh -c "python3 file.py"`) that is one simple
  command running this interpreter (a path, or the first on the child's $PATH) that way is
  rewritten to the same effect (argv.py reads both). Any other subprocess (`env`, a compound
  shell command, python3 on a file outside the project, `-c`) starts exactly as under python3:
  nothing of the run is in its argv or environment.
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
from . import argv as argv_of
from . import current_server, run_folder

__all__ = ["BOOT", "ensure_installed", "expect_main", "install"]

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
    if not _State.subprocesses or not isinstance(argv, list) or len(argv) < 2:
        return
    here = os.path.join(os.getcwd(), os.fsdecode(cwd)) if cwd else os.getcwd()
    if _this_interpreter(executable):
        index = _project_program(argv, here, env)
        if index is not None:
            _insert_boot(argv, index)
    elif os.path.basename(os.fsdecode(executable)) in argv_of.SHELLS and len(argv) >= 3 and argv[1] == "-c":
        _rewrite_shell_command(argv, here, env)


def _project_program(argv, cwd, env):
    """Where to put the boot script in `python [OPTIONS] PROGRAM`: before a project FILE or
    before `-m MODULE` whose file is certainly a project file; else None."""
    start = argv_of.program_start(argv)
    if start is None:
        return None
    index, kind, safe_path = start
    if kind == "file":
        full = os.path.join(cwd, os.fsdecode(argv[index]))
    else:
        full = argv_of.module_file(argv_of.module_name(argv, index), cwd, env, safe_path)
    if full is None or not os.path.isfile(full):
        return None
    return index if paths.is_project_path(os.path.realpath(full), _State.project_root) else None


def _rewrite_shell_command(argv, cwd, env):
    """`sh -c "python FILE"` (shell=True): the command's words get the boot script when the
    command is one simple command running this interpreter on a project program."""
    command = argv[2]
    words = argv_of.shell_words(os.fsdecode(command))
    if words is None:
        return
    found = argv_of.which(words[0], cwd, env)
    if found is None or not _this_interpreter(found):
        return
    index = _project_program(words, cwd, env)
    if index is None or not _insert_boot(words, index):
        return
    line = argv_of.shell_line(words)
    argv[2] = os.fsencode(line) if isinstance(command, bytes) else line


def _insert_boot(argv, index):
    folder = run_folder(_State.server)
    if folder is None:
        return False
    argv[index:index] = [BOOT, folder.path]
    return True


def _this_interpreter(executable):
    path = os.fsdecode(executable)
    return os.sep in path and os.path.realpath(path) == os.path.realpath(sys.executable)


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
