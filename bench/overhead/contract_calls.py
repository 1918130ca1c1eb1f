# bench/overhead: a function-call-heavy program whose functions are annotated (`type_contracts =
# "all"` checks every argument and return value: primitives, Optional, a class, a small list).
# Times its own work with time.perf_counter (best of REPEATS); prints `elapsed` and a checksum.
import time
from typing import Optional

REPEATS = 5
CALLS = 50_000


class Vec:
    def __init__(self, x: float, y: float) -> None:
        self.x = x
        self.y = y

    def dot(self, other: "Vec") -> float:
        return self.x * other.x + self.y * other.y


def area(width: float, height: float) -> float:
    return width * height


def label(index: int, prefix: Optional[str] = None) -> str:
    return prefix or "item"


def total(values: list[int]) -> int:
    return sum(values)


def work() -> float:
    checksum = 0.0
    unit = Vec(1.0, 2.0)
    small = [1, 2, 3, 4]
    for i in range(CALLS):
        checksum += area(1.5, 2.0) + unit.dot(unit) + total(small) + len(label(i))
    return checksum


best = float("inf")
for _ in range(REPEATS):
    start = time.perf_counter()
    result = work()
    best = min(best, time.perf_counter() - start)
print(f"elapsed {best:.6f} checksum {result}")
