"""Runs the program as CPython's own `python3` would: `__main__`, sys.argv, sys.path[0],
`__file__`, `__spec__`, atexit, exit status and traceback text (SPEC §2, §4.1).

prepare_run() turns a `run` request into a ready program (or asks the host for a plan when the
source does not compile); run_program() executes it. Exceptions from the program propagate out
of the interpreter's top level exactly as they would from a script, so CPython itself applies
its rules (SystemExit codes, the KeyboardInterrupt exit by SIGINT, "Error in sys.excepthook");
tracebacks.py only hides the bridge's own frames from the printed traceback.
"""

import os
import sys

from aiython_bridge import protocol, tracebacks

BRIDGE_TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Prepared:
    def __init__(self, kind):
        self.kind = kind
        self.code = None
        self.module = None
        self.syntax_error = None
        self.plan = None
        self.options = {}


class _State:
    source_cache = {}  # stdin programs can be read only once


def _decode(source_bytes):
    from importlib.util import decode_source

    return decode_source(source_bytes)


def _read_source(kind, target):
    if kind == "file":
        with open(target["path"], "rb") as f:
            return f.read()
    if kind == "stdin":
        if "stdin" not in _State.source_cache:
            _State.source_cache["stdin"] = sys.stdin.buffer.read()
        return _State.source_cache["stdin"]
    return target["code"]


def _ask_for_plan(server, message, source, filename, reason):
    decoded = source if isinstance(source, str) else _decode(source)
    server.channel.send({
        "type": protocol.RESULT, "id": message["id"], "ok": False,
        "error": {"type": "needs_plan", "message": reason, "source": decoded, "filename": filename},
    })


def prepare_run(server, message):
    """Return a Prepared program, or None after answering `needs_plan`."""
    target = message["target"]
    kind = target["kind"]
    plan = message.get("plan")
    prepared = Prepared(kind)
    prepared.plan = plan
    prepared.options = message.get("options") or {}
    if kind == "module":
        prepared.module = target["name"]
    elif kind == "directory":
        prepared.module = "__main__"
    else:
        source = _read_source(kind, target)
        filename = {"file": lambda: os.path.abspath(target["path"]), "stdin": lambda: "<stdin>", "code": lambda: "<string>"}[kind]()
        if plan is None and prepared.options.get("plan_always"):
            # A model is configured: the host plans every program (checkpoints, SPEC §4.2).
            _ask_for_plan(server, message, source, filename, "the host plans every program when a model is configured")
            return None
        text = plan["rewritten"] if plan and plan.get("rewritten") is not None else source
        try:
            prepared.code = _compile_program(server, text, filename, plan, prepared.options)
        except (SyntaxError, ValueError) as exc:
            if plan is None:
                _ask_for_plan(server, message, source, filename, str(exc))
                return None
            if plan.get("rewritten") is not None:
                raise  # a rewritten program that does not compile is a bug: reported as internal
            prepared.syntax_error = exc  # no AI block here: fail exactly as CPython does
    _set_process_view(kind, target, message)
    return prepared


def _compile_program(server, text, filename, plan, options):
    if plan and plan.get("checkpoints") and options.get("model_configured"):
        # Recovery checkpoints (SPEC §4.2): recovery/instrument.py wraps the statements the plan names.
        from aiython_bridge.recovery import instrument, sources

        if isinstance(text, bytes):
            text = _decode(text)
        runtime = sources.runtime_for(server, options)
        return instrument.compile_checkpointed(text, filename, plan, runtime, entry=True)
    return compile(text, filename, "exec", dont_inherit=True)


def _set_process_view(kind, target, message):
    """sys.argv, sys.orig_argv, sys.path[0] and __main__'s namespace as under python3."""
    args = list(message.get("argv", []))
    if message.get("orig_argv"):
        sys.orig_argv = [sys.orig_argv[0]] + list(message["orig_argv"])
    if sys.path and sys.path[0] == BRIDGE_TOP:
        del sys.path[0]
    safe_path = getattr(sys.flags, "safe_path", False)
    main_dict = sys.modules["__main__"].__dict__
    if kind == "file":
        path = target["path"]
        sys.argv = [path] + args
        if not safe_path:
            _set_path0(os.path.dirname(os.path.realpath(path)))
        from importlib.machinery import SourceFileLoader

        builtins_module = main_dict["__builtins__"]
        abspath = os.path.abspath(path)
        main_dict.clear()
        main_dict.update(
            __name__="__main__", __doc__=None, __package__=None,
            __loader__=SourceFileLoader("__main__", abspath), __spec__=None, __annotations__={},
            __builtins__=builtins_module, __file__=abspath, __cached__=None,
        )
    elif kind == "directory":
        sys.argv = [target["path"]] + args
        if not safe_path:
            _set_path0(os.path.abspath(target["path"]))
        else:
            sys.path.insert(0, os.path.abspath(target["path"]))
    elif kind == "module":
        sys.argv = ["-m"] + args
        if not safe_path:
            _set_path0(os.getcwd())
    elif kind == "code":
        sys.argv = ["-c"] + args
    elif kind == "stdin":
        sys.argv = ["-"] + args
        main_dict["__file__"] = "<stdin>"
        main_dict["__cached__"] = None


def _set_path0(entry):
    # Under `python -c` the interpreter put "" at sys.path[0]; a script run puts its folder there.
    if sys.path and sys.path[0] == "":
        sys.path[0] = entry
    else:
        sys.path.insert(0, entry)


def run_program(server, prepared):
    import atexit

    outcome = {"exception": None}
    atexit.register(_report_exit, server, outcome)  # registered first, so it runs last
    server.start_reader()
    _install_public_module()
    if prepared.options.get("model_configured"):
        from aiython_bridge import import_hook  # project modules through the frontend (SPEC §4.1)

        import_hook.install(server, prepared.options)
    if prepared.plan and prepared.plan.get("blocks"):
        from aiython_bridge.runtime import install_runtime

        install_runtime(server, prepared.plan, prepared.options)
    main_dict = sys.modules["__main__"].__dict__
    try:
        if prepared.syntax_error is not None:
            raise prepared.syntax_error.with_traceback(None)
        if prepared.module is not None:
            import runpy

            runpy._run_module_as_main(prepared.module, alter_argv=prepared.kind == "module")
        else:
            exec(prepared.code, main_dict)
    except BaseException as exc:
        outcome["exception"] = exc
        if not isinstance(exc, SystemExit):  # CPython prints no traceback for SystemExit
            tracebacks.hide_bridge_frames_when_uncaught()
        raise


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


def _report_exit(server, outcome):
    if os.getpid() != server.pid:
        return  # a forked child of the program: the channel is the parent's
    server.exiting = True
    exc = outcome["exception"]
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

        return spec_from_file_location("aiython", os.path.join(BRIDGE_TOP, "aiython", "__init__.py"))


def _install_public_module():
    sys.meta_path.append(_PublicModuleFinder)
