# The script the host starts: `python [OPTIONS] .../aiython_bridge/start/importlib_bootstrap.py`.
#
# The bridge sets everything up in aiython_bridge.boot.main(), which returns a callable that runs
# the program with no Python frame of its own (functools.partial of exec or of runpy, wrapped in
# C callables that unlink this frame: program/frame_floor.py), so the program's module frame has
# nothing below it, as under python3. Where that cannot be done (an unusual build) this is the
# one frame below the program. The file's path names `importlib` and `_bootstrap` on purpose:
# the warnings module skips such frames as the import system's own, so
# `warnings.warn(..., stacklevel=2)` at module level is reported at `sys:1` as under python3.
#
# ASCII only, and syntax any Python parses: Python 2 runs it far enough to say its version.
# OPTIONS are CPython's own from the command line. Under -x CPython skips this file's first line
# (the program's is skipped by the bridge), so that line must stay a comment; under -I, -P and
# -S nothing but the line below puts the bridge on sys.path (program/process_view.py takes it off).
# It binds no name (it runs in __main__'s namespace) and has no docstring (that would set
# __main__.__doc__). The `with` binds no name either: its __exit__ sees an exception leaving the
# program (program/runner.py's ProgramContext), so that its traceback is shown without this frame.
__import__("sys").path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__import__("os").path.dirname(__import__("os").path.abspath(__file__)))))
with __import__("aiython_bridge.boot").boot.main():
    __import__("aiython_bridge.boot").boot.hand_over()()
