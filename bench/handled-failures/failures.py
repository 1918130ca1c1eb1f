# bench/handled-failures: statements of project code that fail and are handled by their caller,
# timed inside the program (best of 5 repeats of N failures), three ways: nothing watching, under
# a sys.setprofile function and under a sys.settrace function (both doing nothing). With a model
# configured each failure runs its checkpoint's handler: the handler's calls into aiython, and
# with a tracer or profiler on, setting them aside (recovery/unseen.py).
import sys
import time

from helper import parse_all  # test/fixtures/invisible/helper.py

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
TEXTS = ["x"] * N


def quiet(frame, event, arg):
    return None


def best(watch):
    times = []
    for _ in range(5):
        watch(quiet)
        start = time.perf_counter()
        parse_all(TEXTS)
        elapsed = time.perf_counter() - start
        watch(None)
        times.append(elapsed)
    return min(times)


plain = best(lambda function: None)
profiled = best(sys.setprofile)
traced = best(sys.settrace)
print(f"plain {plain:.6f} profiled {profiled:.6f} traced {traced:.6f}")
