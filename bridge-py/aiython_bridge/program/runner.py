"""Runs the program as CPython's own `python3` would: `__main__`, sys.argv, sys.path[0],
`__file__`, `__spec__`, atexit, exit status and traceback text (SPEC §2, §4.1).

prepare_run() turns a `run` request into a ready program (preparation/: checkpoints with a model
configured, the host's plan when the source does not compile, the preparation cache);
start_program() gives the callable that runs it. The program's exceptions leave the
interpreter's top level as a script's would, so CPython applies its own rules (SystemExit codes,
SIGINT, "Error in sys.excepthook"); tracebacks.py only hides the bridge's frames.
"""

import os
import sys

from aiython_bridge import modules
from aiython_bridge.program import frame_floor, process_view, source_bytes, tracebacks

__all__ = ["Prepared", "ProgramContext", "prepare_code", "prepare_run", "start_program"]


class Prepared:
    def __init__(self, kind):
        self.kind = kind
        self.code = None
        self.module = None
        self.refused = None  # what CPython raises before the program runs (a SyntaxError…)
        self.compiled = False  # a .pyc file
        self.options = {}


def prepare_run(server, message):
    """A Prepared program for a `run` request (the reader thread already serves the channel)."""
    target = message["target"]
    kind = target["kind"]
    prepared = Prepared(kind)
    prepared.options = server.options = message.get("options") or {}
    if kind == "console" or sys.flags.inspect:
        # The console's modules (code, codeop) come from the standard library, imported before
        # sys.path[0] becomes the program's folder.
        modules.load("aiython_bridge.console.session")
    if kind == "module":
        prepared.module = target["name"]
    elif kind == "directory":
        prepared.module = "__main__"
    elif kind != "console":
        _prepare_source(server, prepared, target)
    process_view.set_process_view(kind, target, message, compiled=prepared.compiled)
    return prepared


def _prepare_source(server, prepared, target):
    """A file, stdin or -c program: its code, or the error CPython raises before running it."""
    kind = prepared.kind
    source = source_bytes.read_source(kind, target)
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
        prepared.code = prepare_code(server, prepared, source, filename)
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        # No AI block here: fail exactly as CPython does (a line too long for its parser is a
        # MemoryError, as python3 reports it).
        prepared.refused = exc


def prepare_code(server, prepared, source, filename):
    """Code for the entry program (SPEC §4.1): a source CPython compiles runs as it is, or with
    the checkpoints the bridge selects itself when a model is configured; only a source that
    does not compile (an AI block, perhaps) is planned by the host. Prepared code comes from the
    preparation cache when it holds it (preparation/prepare.py). A source CPython refuses before
    parsing it (bytes that are not in its encoding, a NUL byte) is never planned: CPython's own
    error is raised. Without a model, a source that does not compile is refused as python3
    refuses it, nothing run (SPEC §4.3); the host plans it only to count its spans that are not
    Python, for the one line it prints after CPython's SyntaxError. With `type_contracts =
    "all"` and no model, a source that compiles is prepared for its type-contract checks."""
    options = prepared.options
    seekable = source_bytes.seekable(prepared.kind)
    if prepared.kind != "code":
        source_bytes.as_opened(source, filename, seekable)
    if not options.get("model_configured"):
        try:
            if options.get("type_contracts") == "all":
                code = _checked_without_model(server, options, source, filename, seekable)
                if code is not None:
                    return code
            return compile(source, filename, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            refusal = exc
        # Bytes CPython refuses before parsing (a NUL, a bad encoding) raise its own words here.
        text = source if isinstance(source, str) else source_bytes.decoded(source, filename, seekable)
        _host().count_blocks(server, text, filename)
        raise refusal
    text = source if isinstance(source, str) else source_bytes.decoded(source, filename, seekable)
    from aiython_bridge.preparation import prepare

    code = prepare.entry_code(server, options, text, filename, lambda planned: _host().ask_for_plan(server, planned, filename))
    return code if code is not None else compile(text, filename, "exec", dont_inherit=True)  # CPython's own error


def _checked_without_model(server, options, source, filename, seekable):
    """The entry program with its type-contract checks and no model: planned by no one (a
    source that does not compile gets None, and then CPython's own error)."""
    text = source if isinstance(source, str) else source_bytes.decoded(source, filename, seekable)
    from aiython_bridge.preparation import prepare

    return prepare.entry_code(server, options, text, filename, lambda planned: None)


def start_program(server, prepared):
    """Everything the run needs around the program, then the callable that runs it.

    The callable is a functools.partial of exec (or of runpy for -m and folders), wrapped by
    frame_floor.alone: C code, which runs the program with no frame below its first one."""
    from _functools import partial  # functools.partial itself, without functools and what it imports

    if server.reading:  # else at the first request of the host, if one comes (server.start_reader)
        _host().report_exit_at_end(server)
    _install_public_module()
    modules.load("aiython_bridge.processes").install(server, prepared.options)  # SPEC §8: the program's processes
    if prepared.options.get("model_configured") or prepared.options.get("type_contracts") == "all":
        from aiython_bridge.preparation import import_hook  # project modules through the frontend (SPEC §4.1)

        import_hook.install(server, prepared.options)
    if prepared.options.get("memory_limit"):
        modules.load("aiython_bridge.program.memory_limit").limit_memory(prepared.options["memory_limit"])
    if prepared.kind == "console":
        session = modules.load("aiython_bridge.console.session")
        return partial(session.run_bare, server, prepared.options)
    ProgramContext.server, ProgramContext.options = server, prepared.options
    if prepared.refused is not None:
        return partial(_raise, prepared.refused.with_traceback(None))
    if prepared.module is not None:
        import runpy

        return frame_floor.alone(partial(runpy._run_module_as_main, prepared.module, alter_argv=prepared.kind == "module"))
    return frame_floor.alone(partial(exec, prepared.code, sys.modules["__main__"].__dict__))


def _raise(exc):
    raise exc


class ProgramContext:
    """The boot script's `with`: holds the program's callable; its __exit__ sees an exception
    leaving the program, keeps what `exit` reports of it, and has the traceback printed without
    the bridge's frames (CPython prints none for SystemExit).

    It keeps no reference to the exception: its traceback holds the program's frames and through
    them `__main__`'s namespace, which CPython's finalization would then never clear (open files
    left unflushed, `__del__` never run)."""

    current = None
    ending = None  # the `exit` message's fields, set when the program ends by an exception
    server = None  # set with the program's options: the console after it (-i) needs both
    options = None

    def __init__(self, program):
        self.program = program
        ProgramContext.current = self

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc, tb):
        # The program is over: let go of its namespace, so that the interpreter's finalization
        # clears it as under python3 (generators closed, __del__ run, in CPython's order).
        self.program = None
        _save_cache_indexes()
        inspecting = bool(sys.flags.inspect or os.environ.get("PYTHONINSPECT"))
        if exc is not None:
            ProgramContext.ending = _ending(exc)
            if not isinstance(exc, SystemExit) or inspecting:  # under -i CPython prints SystemExit too
                tracebacks.hide_bridge_frames_when_uncaught()
        if ProgramContext.server is not None and inspecting:
            # CPython starts its REPL next (-i): the console that speaks AI syntax takes its place.
            modules.load("aiython_bridge.console.session").install_after_program(ProgramContext.server, ProgramContext.options)
        return False


def _ending(exc):
    """What `exit` says of the exception that ended the program: its status, whether it was an
    interrupt, and whether an AI budget ran out (the host exits 75, SPEC §13)."""
    ending = {"status": _exit_status(exc), "interrupted": isinstance(exc, KeyboardInterrupt)}
    errors = modules.loaded("aiython_bridge.errors")  # never loaded: no AIBudgetError was raised
    if errors is not None and isinstance(exc, errors.AIBudgetError):
        ending["budget"] = True
    return ending


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


def _save_cache_indexes():
    """What the preparation cache learned while the program ran (its index), kept for the next run."""
    prepare = modules.loaded("aiython_bridge.preparation.prepare")
    if prepare is None:
        return
    try:
        prepare.save_indexes()
    except Exception:  # noqa: BLE001 - best effort, as every cache write; the run's end comes first
        pass


def _install_public_module():
    """`import aiython` works in the program, with nothing of aiython's in the way of other imports."""
    modules.load("aiython_bridge.program.public_module").install()


def _host():
    """host_messages.py: loaded when the run first asks or tells the host something."""
    return modules.load("aiython_bridge.program.host_messages")
