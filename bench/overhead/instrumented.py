# bench/overhead driver: the bridge's recovery/instrument.py applied directly, without the host.
# A checkpoint goes on every statement that SPEC §4.2 selects (recovery/selection.py, the one rule
# every run uses) with recovery switched on.
# Nothing fails in the program, so this measures the happy path only; a consultation would be a
# bench failure.
#   python3 bench/overhead/instrumented.py [--plain] PROGRAM.py
#       runs PROGRAM as __main__, instrumented (or, with --plain, compiled as CPython would)
#   python3 bench/overhead/instrumented.py --alternate PROGRAM.py ROUNDS
#       loads PROGRAM twice as a module (plain and instrumented) and alternates calls of each of
#       its PARTS in one process, so both copies see the same machine load; prints the sums of
#       the best time of each part.
import builtins
import os
import sys
import time

BRIDGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bridge-py")
sys.path.insert(0, BRIDGE)

from aiython_bridge.preparation.program_code import compile_unbound  # noqa: E402
from aiython_bridge.recovery.checkpoints import CheckpointRuntime  # noqa: E402

del sys.path[0]


class Refuse:
    """The decision source: nothing fails in the program, so any consultation ends the bench."""

    def consult(self, pause):
        try:
            request = pause.request()
        finally:
            pause.close()
        raise SystemExit(f"bench: unexpected recovery consultation at {request['block_id']}: "
                         f"{request['recovery']['exception_type']}")

    async def aconsult(self, pause):
        return self.consult(pause)


def load(path, *, instrumented, name):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    namespace = {"__name__": name, "__file__": path, "__builtins__": builtins}
    if not instrumented:
        code = compile(source, path, "exec")
    else:
        runtime = CheckpointRuntime(Refuse(), project_root=os.path.dirname(path))
        compiled = compile_unbound(source, path, {}, checkpoints=True, entry=True)
        code = compiled.bind(checkpoints=runtime, filename=path)
        print(f"checkpoints {len(compiled.checkpoints)}", file=sys.stderr)
    exec(code, namespace)
    return namespace


def alternate(path, rounds):
    copies = {"plain": load(path, instrumented=False, name="plain"),
              "instrumented": load(path, instrumented=True, name="instrumented")}
    parts = len(copies["plain"]["PARTS"])
    best = {(label, i): float("inf") for label in copies for i in range(parts)}
    for r in range(rounds):
        for i in range(parts):
            results = set()
            for label in (copies if r % 2 else reversed(list(copies))):
                part, size = copies[label]["PARTS"][i]
                start = time.perf_counter()
                results.add(part(size))
                best[label, i] = min(best[label, i], time.perf_counter() - start)
            if len(results) != 1:
                raise SystemExit(f"bench: the copies computed different results for part {i}: {results}")
    totals = {label: sum(best[label, i] for i in range(parts)) for label in copies}
    print(f"plain {totals['plain']:.6f} instrumented {totals['instrumented']:.6f}")


def main():
    args = sys.argv[1:]
    if args[0] == "--alternate":
        alternate(os.path.abspath(args[1]), int(args[2]))
        return
    plain = args[0] == "--plain"
    path = os.path.abspath(args[1] if plain else args[0])
    sys.argv = [path]
    load(path, instrumented=not plain, name="__main__")


main()
