# bench/imports: the bridge's preparation of one entry program measured in process (SPEC §12:
# "second run of an unchanged program with AI blocks: preparation ≤ 5 ms"). The plan the host's
# frontend made for the program (a JSON file) stands in for the `plan` request; the first
# preparation is a miss (compile, store), each later one a hit (read, verify, unmarshal, bind).
#   python3 prepare_timing.py PROGRAM.py PLAN.json CACHE_DIR ROUNDS
# Prints: `cold <ms> warm <median ms> warm-best <ms>`.
import json
import os
import sys
import time

BRIDGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bridge-py")
sys.path.insert(0, BRIDGE)
from aiython_bridge.preparation import prepare  # noqa: E402

del sys.path[0]


class Server:
    pid = os.getpid()
    exiting = False
    pause_router = None


def main():
    program, plan_file, cache_dir, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with open(plan_file, encoding="utf-8") as f:
        plan = json.load(f)
    options = {"model_configured": True, "project_root": os.path.dirname(program), "context_values": True,
               "cache": {"dir": cache_dir, "version": "bench", "max_bytes": 1 << 26}}
    server = Server()
    asked = []

    def plan_for(text):
        asked.append(text)
        return plan

    def prepared():
        with open(program, "rb") as f:  # the runner reads the file on every run too
            data = f.read()
        start = time.perf_counter()
        code = prepare.entry_code(server, options, data, program, plan_for)
        elapsed = time.perf_counter() - start
        if code is None:
            raise SystemExit("bench: the program was not prepared")
        return elapsed

    cold = prepared()
    warm = sorted(prepared() for _ in range(rounds))
    if len(asked) != 1:
        raise SystemExit(f"bench: the plan was asked for {len(asked)} times; a warm preparation must not ask")
    print(f"cold {cold * 1000:.3f} warm {warm[len(warm) // 2] * 1000:.3f} warm-best {warm[0] * 1000:.3f}")


main()
