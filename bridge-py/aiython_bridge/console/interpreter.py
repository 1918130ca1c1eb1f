"""The console's interpreter (SPEC §2): CPython's compile first, the frontend when it refuses.

Input CPython compiles runs exactly as in CPython's console. Input it cannot compile is handed
to the host as a `plan` request (docs/protocol.md, `interactive: true`): a plan with AI blocks
runs in the console's namespace in "single" mode, so an expression block's value is echoed and
bound to `_` like any expression's, with recovery checkpoints when a model is configured. A
plan without blocks, or with a block that reads as mistyped Python (the plan's `typos`), shows
CPython's own SyntaxError. A line that opens a block (`while there are items left:`), or
compound input a later line of which CPython refused, waits for the blank line that ends
compound input, as CPython's console does.

Without a model (SPEC §4.3) the console is CPython's: input it cannot compile shows CPython's
SyntaxError at once (nothing waits for a blank line), and the first time that input would have
been an AI block, one `aiython:` line says how to run such input (`aiython setup`).

Errors are shown as CPython's console shows them: through sys.excepthook, with the console's
own frames (and the bridge's runtime below an AI block) left out of the traceback.
"""

# The standard library's `code`, imported with the bridge, before sys.path[0] is the program's
# (whose own code.py would be found first then): pycompat.console_base takes it from sys.modules.
# Imported for that alone, so no name is bound.
__import__("code")
import codeop
import linecache
import sys

from aiython_bridge import modules, protocol, pycompat
from aiython_bridge.program import tracebacks

__all__ = [
    "AwaitingCompiler", "awaiting_more", "console_class", "display_exception", "record_last_error",
]


class AwaitingCompiler(codeop.CommandCompiler):
    """codeop's compiler, except that input CPython refuses but that may be AI syntax still being
    typed (a header ending in ':', or a later line of compound input) counts as incomplete."""

    def __call__(self, source, filename="<input>", symbol="single"):
        try:
            return super().__call__(source, filename, symbol)
        except (OverflowError, SyntaxError, ValueError):
            if awaiting_more(source):
                return None
            raise


_REFUSED = object()


def awaiting_more(source):
    lines = source.split("\n")
    if lines[-1].strip() == "":
        return False  # a blank line ends compound input
    return len(lines) > 1 or lines[0].split("#", 1)[0].rstrip().endswith(":")


def console_class(base):
    """The console on top of `base` (code.InteractiveConsole, or pyrepl's colored console)."""

    class AIConsole(base):
        def __init__(self, namespace, server, options, filename="<stdin>"):
            base.__init__(self, namespace, filename=filename)
            self._configured = bool(options.get("model_configured"))
            if self._configured:
                self.compile = AwaitingCompiler()
            self._server = server
            self._options = options
            self._hinted = set()

        def runsource(self, source, filename="<stdin>", symbol="single"):
            try:
                code = self.compile(source, filename, symbol)
            except (OverflowError, SyntaxError, ValueError):
                code = _REFUSED  # planned outside this handler, so no error of the input chains to it
            if code is _REFUSED:
                if self._configured and self._run_planned(source, filename):
                    return False
                more = base.runsource(self, source, filename, symbol)  # CPython's own SyntaxError
                if not self._configured and not more and self._reads_as_prose(source, filename):
                    self._hint("input that is not Python runs as an AI block once a model is configured (aiython setup)")
                return more
            if code is None:
                return True
            if hasattr(base, "_showtraceback"):
                return base.runsource(self, source, filename, symbol)  # 3.13: one statement at a time
            self.runcode(code)
            return False

        def _run_planned(self, source, filename):
            """True when the input ran (or was answered) as planned AI syntax."""
            text = source if source.endswith("\n") else source + "\n"
            reply = self._server.request({"type": protocol.PLAN, "path": filename, "source": text, "module": "__main__",
                                          "entry": True, "interactive": True})
            if not reply.get("ok"):
                self.write("aiython: %s\n" % (reply.get("error") or {}).get("message", "the input could not be planned"))
                return True
            plan = reply.get("value")
            if not isinstance(plan, dict) or not plan.get("blocks"):
                return False
            if plan.get("typos"):
                self.showsyntaxerror_of(source, filename)
                self._hint("this reads as mistyped Python, not natural language, so it is not an AI block")
                return True
            try:
                code = _compile_planned(text, filename, plan, self._server, self._options, self.compile.compiler.flags)
            except (OverflowError, SyntaxError, ValueError):
                self.showsyntaxerror(filename)
                return True
            lines = text.splitlines(True)
            linecache.cache[filename] = (len(text), None, lines, filename)  # the source, for the model's code context
            try:
                self.runcode(code)
            finally:
                linecache.cache.pop(filename, None)  # CPython's console shows no source lines for <stdin>
            return True

        def showsyntaxerror_of(self, source, filename):
            """CPython's own SyntaxError for `source`, as its console shows it."""
            try:
                codeop.compile_command(source, filename, "single")
            except (OverflowError, SyntaxError, ValueError):
                self.showsyntaxerror(filename)

        def _reads_as_prose(self, source, filename):
            """Whether refused input holds a span the frontend reads as natural language (the host's
            plan: a block that is not among its typos)."""
            if self._hinted:
                return False  # said once already: no need to plan
            text = source if source.endswith("\n") else source + "\n"
            reply = self._server.request({"type": protocol.PLAN, "path": filename, "source": text, "module": "__main__",
                                          "entry": True, "interactive": True})
            plan = reply.get("value") if reply.get("ok") else None
            if not isinstance(plan, dict):
                return False
            typos = plan.get("typos") or ()
            return any(block.get("index") not in typos for block in plan.get("blocks") or ())

        def _hint(self, text):
            """One `aiython:` line, the first time it applies in this session."""
            if text not in self._hinted:
                self._hinted.add(text)
                self.write("aiython: %s\n" % text)

        def raw_input(self, prompt=""):
            """input() on a terminal (readline edits and keeps history); otherwise the prompt goes
            to stderr and a line is read as CPython's console reads a pipe."""
            if _terminal():
                return input(prompt)
            sys.stdout.flush()
            sys.stderr.write(prompt)
            sys.stderr.flush()
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line[:-1] if line.endswith("\n") else line

        def showtraceback(self):
            typ, value, tb = sys.exc_info()
            tb = tracebacks.strip(tb.tb_next)  # runcode's frame, and the runtime's below a block
            value = value.with_traceback(tb)
            if hasattr(base, "_showtraceback"):
                return base._showtraceback(self, typ, value, tb, "")
            record_last_error(typ, value, tb)
            display_exception(typ, value, tb)

        def showsyntaxerror(self, filename=None, **kwargs):
            if hasattr(base, "_showtraceback"):
                return base.showsyntaxerror(self, filename, **kwargs)
            typ, value, _ = sys.exc_info()
            value = value.with_traceback(None)  # a parse error has no traceback in CPython's console
            record_last_error(typ, value, None)
            display_exception(typ, value, None)

    return AIConsole


def _terminal():
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _compile_planned(text, filename, plan, server, options, flags):
    """The code of console input as `plan` runs it, with its checkpoints when a model is configured."""
    program_code = modules.load("aiython_bridge.preparation.program_code")
    Runtime = modules.load("aiython_bridge.pauses.runtime").Runtime
    held_back = modules.load("aiython_bridge.preparation.compiler_warnings").held_back
    with held_back(record=False):  # the compiler's warnings: the retry copies would repeat them
        compiled = program_code.compile_unbound(text, filename, plan, checkpoints=bool(options.get("model_configured")),
                                                entry=True, mode="single", flags=flags)
    checkpoints = None
    if compiled.checkpoints:
        checkpoints = modules.load("aiython_bridge.recovery.sources").runtime_for(server, options)
    return compiled.bind(blocks=Runtime(server, plan, options), checkpoints=checkpoints, filename=filename)


def record_last_error(typ, value, tb):
    """What CPython's console records of the last error (sys.last_*)."""
    sys.last_type, sys.last_value, sys.last_traceback = typ, value, tb
    if pycompat.HAS_LAST_EXC:
        sys.last_exc = value


def display_exception(typ, value, tb):
    """Through sys.excepthook as CPython's console does, with its fallback when the hook fails."""
    try:
        sys.excepthook(typ, value, tb)
    except SystemExit:
        raise
    except BaseException as error:
        print("Error in sys.excepthook:", file=sys.stderr)
        sys.__excepthook__(type(error), error, error.__traceback__)
        print(file=sys.stderr)
        print("Original exception was:", file=sys.stderr)
        sys.__excepthook__(typ, value, tb)
