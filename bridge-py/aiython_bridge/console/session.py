"""Starting the console the way CPython starts its own (Modules/main.c), so that what a user sees
and what their startup files rely on stay python3's (SPEC §2).

`aiython` on a terminal is `python3` without arguments: the banner on stderr (not under -q; the
second line not under -S), readline imported (not under -I), PYTHONSTARTUP run in __main__ with
`__file__` set for its duration (not under -E), sys.__interactivehook__ called (site's: tab
completion and ~/.python_history), then the console; Ctrl-D ends it with a newline, exit()
with its status.

Under `-i` the interpreter itself was started with -i, so sys.flags and the early readline
import are CPython's, and CPython prints the program's traceback and then starts its own REPL,
calling sys.__interactivehook__ first. The bridge puts its hook there when the program ends: it
calls the hook that was there, runs this console, and then hands CPython's REPL a standard input
that holds nothing (Ctrl-D: CPython's REPL ends as after its own Ctrl-D, newline included) or
one line re-raising the console's SystemExit (exit(3): CPython exits 3 as from its own REPL), so
the interpreter finalizes exactly as after its own console. Prompts are emptied for that last
read, so it shows nothing.
"""

import os
import sys

from aiython_bridge import pycompat
from aiython_bridge.console.interpreter import console_class, display_exception, record_last_error
from aiython_bridge.program import tracebacks

__all__ = ["install_after_program", "interact", "run_bare"]

_NO_EXIT = object()


def run_bare(server, options):
    """`aiython` on a terminal."""
    flags = sys.flags
    if not flags.quiet:
        sys.stderr.write("Python %s on %s\n" % (sys.version, sys.platform))
        if not flags.no_site:
            sys.stderr.write('Type "help", "copyright", "credits" or "license" for more information.\n')
        sys.stderr.flush()
    if not flags.isolated:
        try:
            __import__("readline")  # line editing for input(), as CPython's console has: importing it is all
        except ImportError:
            pass
    namespace = sys.modules["__main__"].__dict__
    if not flags.ignore_environment:
        _run_startup(namespace)
    _call_interactive_hook(getattr(sys, "__interactivehook__", None))
    interact(namespace, server, options, eof_newline=True)


def install_after_program(server, options):
    """Under -i: this console instead of CPython's REPL (see the module's docstring)."""
    original = getattr(sys, "__interactivehook__", None)

    def hook():
        try:
            del sys.__interactivehook__
        except AttributeError:
            pass
        _call_interactive_hook(original)
        status = _NO_EXIT
        try:
            interact(sys.modules["__main__"].__dict__, server, options, eof_newline=False)
        except SystemExit as exc:
            status = exc.code
        _hand_back(status)

    sys.__interactivehook__ = hook


def interact(namespace, server, options, *, eof_newline):
    base, runner = pycompat.console_base()
    console = console_class(base)(namespace, server, options)
    for name, default in (("ps1", ">>> "), ("ps2", "... ")):
        if not hasattr(sys, name):
            setattr(sys, name, default)
    if runner is not None:
        runner(console)
        return
    more = False
    while True:
        try:
            prompt = getattr(sys, "ps2" if more else "ps1", "")
            try:
                line = console.raw_input(str(prompt))
            except EOFError:
                if eof_newline:
                    console.write("\n")
                return
            more = console.push(line)
        except KeyboardInterrupt:
            console.write("\nKeyboardInterrupt\n")
            console.resetbuffer()
            more = False


def _run_startup(namespace):
    path = os.environ.get("PYTHONSTARTUP")
    if not path:
        return
    sys.audit("cpython.run_startup", path)
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as exc:
        sys.stderr.write("Could not open PYTHONSTARTUP\n")
        record_last_error(type(exc), exc, None)
        display_exception(type(exc), exc.with_traceback(None), None)
        return
    set_name = "__file__" not in namespace
    if set_name:
        namespace["__file__"] = path
        namespace["__cached__"] = None
    try:
        exec(compile(source, path, "exec", dont_inherit=True), namespace)
    except SystemExit:
        raise
    except BaseException:
        _show_current()
    finally:
        if set_name:
            namespace.pop("__file__", None)
            namespace.pop("__cached__", None)


def _call_interactive_hook(hook):
    if hook is None:
        return
    try:
        sys.audit("cpython.run_interactivehook", hook)
        hook()
    except BaseException as exc:
        sys.stderr.write("Failed calling sys.__interactivehook__\n")
        if isinstance(exc, SystemExit):
            raise
        _show_current()


def _show_current():
    typ, value, tb = sys.exc_info()
    tb = tracebacks.strip(tb)
    record_last_error(typ, value, tb)
    display_exception(typ, value.with_traceback(tb), tb)


def _hand_back(status):
    """What CPython's REPL reads after this console: nothing, or the line that exits with `status`."""
    sys.ps1 = sys.ps2 = ""
    read_end, write_end = os.pipe()
    if status is not _NO_EXIT:
        code = status if status is None or isinstance(status, int) else str(status)
        os.write(write_end, ("raise SystemExit(%r)\n" % (code,)).encode("utf-8"))
    os.close(write_end)
    os.dup2(read_end, 0)
    os.close(read_end)
