"""Runs the program as CPython's own `python3` would: `__main__`, sys.argv, sys.path[0],
`__file__`, `__spec__`, atexit, exit status and traceback text (SPEC §2, §4.1).

prepare_run() turns a `run` request into a ready program, asking the host for a plan (the
`plan` request, as for imported modules) when the source does not compile or a model is
configured; run_program() executes it. Exceptions from the program propagate out
of the interpreter's top level exactly as they would from a script, so CPython itself applies
its rules (SystemExit codes, the KeyboardInterrupt exit by SIGINT, "Error in sys.excepthook");
tracebacks.py only hides the bridge's own frames from the printed traceback.
"""

import os
import sys
from importlib.machinery import SourceFileLoader

from aiython_bridge import modules, process_view, protocol, source_bytes, tracebacks

BRIDGE_TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Prepared:
    def __init__(self, kind):
        self.kind = kind
        self.code = None
        self.module = None
        self.refused = None  # what CPython raises before the program runs (a SyntaxError…)
        self.compiled = False  # a .pyc file
        self.plan = None
        self.options = {}


class _State:
    source_cache = {}  # stdin programs can be read only once


def _read_source(kind, target):
    if kind == "file":
        with open(target["path"], "rb") as f:
            return f.read()
    if kind == "stdin":
        if "stdin" not in _State.source_cache:
            _State.source_cache["stdin"] = sys.stdin.buffer.read()
        return _State.source_cache["stdin"]
    return target["code"]


def _seekable(kind):
    if kind != "stdin":
        return True
    try:
        os.lseek(0, 0, os.SEEK_CUR)
        return True
    except OSError:
        return False


def _ask_for_plan(server, source, filename):
    """The host's plan for the entry program (docs/protocol.md `plan`), or None."""
    reply = server.request({"type": protocol.PLAN, "path": filename, "source": source, "module": "__main__", "entry": True})
    if not reply.get("ok"):
        raise protocol.ProtocolViolation("the host did not plan the program: %s" % (reply.get("error") or {}).get("message"))
    plan = reply.get("value")
    return plan if isinstance(plan, dict) else None


def prepare_run(server, message):
    """A Prepared program for a `run` request (the reader thread already serves the channel)."""
    target = message["target"]
    kind = target["kind"]
    prepared = Prepared(kind)
    prepared.options = server.options = message.get("options") or {}
    if kind == "module":
        prepared.module = target["name"]
    elif kind == "directory":
        prepared.module = "__main__"
    else:
        _prepare_source(server, prepared, target)
    process_view.set_process_view(kind, target, message, compiled=prepared.compiled)
    return prepared


def _prepare_source(server, prepared, target):
    """A file, stdin or -c program: its code, or the error CPython raises before running it."""
    kind = prepared.kind
    source = _read_source(kind, target)
    if kind == "file":
        skip = prepared.options.get("skip_first_line", False)
        if source_bytes.is_compiled(target["path"], source, skip):
            prepared.compiled = True
            try:
                prepared.code = source_bytes.compiled_code(source)
            except (RuntimeError, EOFError) as exc:
                prepared.refused = exc
            return
        if skip:
            source = source_bytes.without_first_line(source)
    filename = {"file": lambda: os.path.abspath(target["path"]), "stdin": lambda: "<stdin>", "code": lambda: "<string>"}[kind]()
    try:
        prepared.code = _prepare_code(server, prepared, source, filename)
    except (SyntaxError, ValueError) as exc:
        prepared.refused = exc  # no AI block here: fail exactly as CPython does


def _prepare_code(server, prepared, source, filename):
    """Code for the entry program (SPEC §4.1): a source CPython compiles runs as it is, or with
    the checkpoints the bridge selects itself when a model is configured; only a source that
    does not compile (an AI block, perhaps) is planned by the host. A source CPython refuses
    before parsing it (bytes that are not in its encoding, a NUL byte) is never planned:
    CPython's own error is raised."""
    options = prepared.options
    seekable = _seekable(prepared.kind)
    if not seekable:
        source_bytes.check(source, filename, seekable)  # a coding cookie CPython cannot apply to a pipe
    if not options.get("model_configured"):
        try:
            return compile(source, filename, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            pass  # perhaps an AI block: the host finds out
    text = source if isinstance(source, str) else source_bytes.decoded(source, filename, seekable)
    if options.get("model_configured"):
        code = _checkpointed_as_it_is(server, text, filename, options)
        if code is not None:
            return code
    plan = prepared.plan = _ask_for_plan(server, text, filename)
    if plan is None:
        return compile(text, filename, "exec", dont_inherit=True)
    # The frontend had CPython's parser confirm the rewritten program; a SyntaxError compiling it
    # is one CPython raises after parsing ('return' outside function…): the program's own.
    return _compile_program(server, text if plan.get("rewritten") is None else plan["rewritten"], filename, plan, options)


def _checkpointed_as_it_is(server, text, filename, options):
    """The code of a source CPython compiles, with its checkpoints; None when it does not."""
    try:
        compile(text, filename, "exec", dont_inherit=True)  # CPython's own warnings, once
    except (SyntaxError, ValueError):
        return None
    from aiython_bridge import program_code

    tree = program_code.parse_quietly(text, filename)
    selection = modules.load("aiython_bridge.recovery.selection")
    plan = {"checkpoints": selection.select_checkpoints(tree, text, entry=True, name=display_name(filename))}
    return _compile_program(server, text, filename, plan, options, tree=tree)


def display_name(filename):
    """The name ids use: a file's base name, or `<string>` / `<stdin>` (as the frontend's)."""
    return filename if filename.startswith("<") else os.path.basename(filename)


def _compile_program(server, text, filename, plan, options, tree=None):
    """The entry program's code from its plan: its blocks, and its checkpoints when a model is
    configured (recovery, SPEC §4.2)."""
    from aiython_bridge.program_code import compile_plan_quietly
    from aiython_bridge.runtime import Runtime

    blocks = Runtime(server, plan, options) if plan.get("blocks") else None
    checkpoints = None
    if plan.get("checkpoints") and options.get("model_configured"):
        from aiython_bridge.recovery import sources

        checkpoints = sources.runtime_for(server, options)
    return compile_plan_quietly(text, filename, plan, blocks=blocks, checkpoints=checkpoints, entry=True, tree=tree)


def start_program(server, prepared):
    """Everything the run needs around the program, then the callable that runs it.

    The callable is a functools.partial of exec (or of runpy for -m and folders): C code, so the
    program's frames sit directly on the boot script's (start/importlib_bootstrap.py)."""
    import atexit
    import functools

    atexit.register(_report_exit, server)  # registered first, so it runs last
    _install_public_module()
    modules.load("aiython_bridge.processes").install(server, prepared.options)  # SPEC §8: the program's processes
    if prepared.options.get("model_configured"):
        from aiython_bridge import import_hook  # project modules through the frontend (SPEC §4.1)

        import_hook.install(server, prepared.options)
    if prepared.refused is not None:
        return functools.partial(_raise, prepared.refused.with_traceback(None))
    if prepared.module is not None:
        import runpy

        return functools.partial(runpy._run_module_as_main, prepared.module, alter_argv=prepared.kind == "module")
    return functools.partial(exec, prepared.code, sys.modules["__main__"].__dict__)


def _raise(exc):
    raise exc


class ProgramContext:
    """The boot script's `with`: holds the program's callable; its __exit__ sees an exception
    leaving the program, remembers it for `exit`, and has the traceback printed without the
    bridge's frames (CPython prints none for SystemExit)."""

    current = None
    exception = None

    def __init__(self, program):
        self.program = program
        ProgramContext.current = self

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc, tb):
        # The program is over: let go of its namespace, so that the interpreter's finalization
        # clears it as under python3 (generators closed, __del__ run, in CPython's order).
        self.program = None
        if exc is not None:
            ProgramContext.exception = exc
            if not isinstance(exc, SystemExit):
                tracebacks.hide_bridge_frames_when_uncaught()
        return False


def _exit_status(exc):
    if exc is None:
        return 0
    if isinstance(exc, SystemExit):
        code = exc.code
        if code is None:
            return 0
        return code & 0xFF if isinstance(code, int) else 1
    if isinstance(exc, KeyboardInterrupt):
        return 130
    return 1


def _report_exit(server):
    if os.getpid() != server.pid:
        return  # a forked child of the program: the channel is the parent's
    server.exiting = True
    if server.role == "child":  # one of the run's processes: only its end of stream
        if getattr(server.channel, "connected", True) and not server.gone:
            try:
                server.channel.send_end_of_stream()
            except OSError:
                pass
        return
    exc = ProgramContext.exception
    try:
        server.channel.send({"type": protocol.EXIT, "status": _exit_status(exc), "interrupted": isinstance(exc, KeyboardInterrupt)})
        server.channel.send_end_of_stream()
    except OSError:
        pass


class _PublicModuleFinder:
    """Makes `import aiython` (AIError and friends) work without putting the bridge on sys.path."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "aiython":
            return None
        from importlib.util import spec_from_file_location

        path = os.path.join(BRIDGE_TOP, "aiython", "__init__.py")
        return spec_from_file_location("aiython", path, loader=_PublicModuleLoader("aiython", path))


class _PublicModuleLoader(SourceFileLoader):
    """Runs aiython/__init__.py with the bridge's modules visible: it takes AIError and friends
    from aiython_bridge.errors, so that they are the very classes the bridge raises."""

    def exec_module(self, module):
        with modules.visible():
            super().exec_module(module)


def _install_public_module():
    sys.meta_path.append(_PublicModuleFinder)
