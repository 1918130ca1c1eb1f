# bench/overhead: an assignment-heavy program: annotated local assignments in a hot loop
# (`type_contracts = "all"` checks each one: int, float, str, a tuple, Optional).
# Times its own work with time.perf_counter (best of REPEATS); prints `elapsed` and a checksum.
import time
from typing import Optional

REPEATS = 5
ROUNDS = 100_000


def work() -> int:
    checksum = 0
    for i in range(ROUNDS):
        value: int = i * 3
        ratio: float = value / 2
        name: str = "row"
        pair: tuple[int, int] = (i, value)
        note: Optional[str] = None if i % 2 else name
        checksum += value + int(ratio) + pair[0] + len(note or "")
    return checksum


best = float("inf")
for _ in range(REPEATS):
    start = time.perf_counter()
    result = work()
    best = min(best, time.perf_counter() - start)
print(f"elapsed {best:.6f} checksum {result}")
