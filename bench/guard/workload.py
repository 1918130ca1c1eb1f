"""bench/guard.ts's workload: two parts timed inside the process, best of several repeats.

events: a loop of actions that raise audit events (open, os.listdir, os.stat via pathlib,
        compile, sys._getframe): what an installed audit hook is called for;
cpu:    bench/overhead/cpu_bound.py's work, which raises none.
With --guard, the source guard's hook is installed first (as after a run's first tool call) and
no tool is running, which is the state every program with AI blocks is in between its blocks.
Prints `events <seconds> cpu <seconds>`.
"""

import os
import pathlib
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

if "--guard" in sys.argv:
    sys.path.insert(0, os.path.join(HERE, "..", "..", "bridge-py"))
    from aiython_bridge.guard import hook

    hook.install()

sys.path.insert(0, os.path.join(HERE, "..", "overhead"))
import cpu_bound  # noqa: E402


def events(n=20_000):
    path = pathlib.Path(__file__)
    for _ in range(n):
        with open(__file__, "rb"):
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


print(f"events {best(events):.6f} cpu {best(cpu_bound.work):.6f}")
