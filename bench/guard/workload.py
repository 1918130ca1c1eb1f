"""bench/guard.ts's workload: two parts timed inside the process, best of several repeats.

events: a loop of actions that raise audit events (open for reading and for writing,
        os.listdir, os.stat via pathlib, compile, sys._getframe): what an installed audit hook
        is called for; the write is an action the guard judges (it walks the stack);
cpu:    bench/overhead/cpu_bound.py's work, which raises none.
Modes (argv[1]):
  plain     no hook;
  program   the source guard installed and one tool call run and returned (the hook and its
            stand-ins are in place), the parts run as the program's own code: the state every
            program with AI blocks is in between its blocks;
  leftover  as `program`, but the tool left a function of its own alive (a patched hook, a
            lambda in a list), so the guard walks the stack of each write it judges;
  tool      the parts run as a tool's code (compiled as `execute` compiles it, on a watched
            thread): what code a model runs pays.
Prints `events <seconds> cpu <seconds>`.
"""

import os
import pathlib
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODE = sys.argv[1] if len(sys.argv) > 1 else "plain"
SCRATCH = os.path.join(tempfile.mkdtemp(prefix="aiython-bench-guard-"), "out.txt")

sys.path.insert(0, os.path.join(HERE, "..", "overhead"))
import cpu_bound  # noqa: E402


def events(n=20_000):
    path = pathlib.Path(__file__)
    for _ in range(n):
        with open(__file__, "rb"):
            pass
        with open(SCRATCH, "w"):
            pass
        os.listdir(HERE)
        path.exists()
        compile("1 + 1", "<bench>", "eval")
        sys._getframe()


def best(part, repeats=5):
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        part()
        times.append(time.perf_counter() - started)
    return min(times)


def measure():
    return f"events {best(events):.6f} cpu {best(cpu_bound.work):.6f}"


if MODE == "plain":
    print(measure())
else:
    sys.path.insert(0, os.path.join(HERE, "..", "..", "bridge-py"))
    from aiython_bridge import guard

    root = os.path.dirname(SCRATCH)
    with guard.watching(guard.Watch(root)):  # the first tool call: the hook and stand-ins go in
        exec(compile("made_by_a_tool = lambda: None", "<aiython-execute>", "exec"), globals())
    if MODE != "leftover":
        del made_by_a_tool  # noqa: F821 - the tool's function dies, as most tools leave nothing
    if MODE in ("program", "leftover"):
        print(measure())
    else:
        with guard.watching(guard.Watch(root)):
            namespace = {"measure": measure}
            exec(compile("result = measure()", "<aiython-execute>", "exec"), namespace)
        print(namespace["result"])
