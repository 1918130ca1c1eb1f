# bench/overhead: a hot loop that holds a rarely executed checkpointed statement (SPEC §12: "≤ 1.03 ×
# CPython ..., including hot loops that contain rarely executed checkpointed statements"). A
# trial-division prime sieve: the inner loop runs for every candidate divisor, `is_p = False`
# only for composites. On 3.11, where exception handlers are laid out inline, a handler that made
# the inner loop longer than 255 code units would add EXTENDED_ARG to its jumps on every iteration
# (bridge-py/tests/test_checkpoint_cost.py reads the bytecode). Times its own work like
# cpu_bound.py and prints `elapsed <seconds> checksum <n>` (best of REPEATS).
import time

REPEATS = 5


def primes(limit):
    found = []
    for n in range(2, limit):
        is_p = True
        for d in found:
            if d * d > n:
                break
            if n % d == 0:
                is_p = False
                break
        if is_p:
            found.append(n)
    return found


PARTS = [(lambda n: len(primes(n)), 120_000)]


def work():
    checksum = 0
    for part, size in PARTS:
        checksum += part(size)
    return checksum


if __name__ == "__main__":  # instrumented.py --alternate loads the program and times PARTS itself
    best = None
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = work()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None or elapsed < best else best
    print(f"elapsed {best:.6f} checksum {result}")
