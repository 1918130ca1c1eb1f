# bench/invocations: the first block against the later ones, timed by the program itself. The
# program works for a while first (as programs do before their first block), then times each block.
import json
import time

time.sleep(0.3)
t = time.perf_counter()
n: int = pick a number
first = time.perf_counter() - t
later = []
for i in range(20):
    t = time.perf_counter()
    m: int = pick a number close to i
    later.append(time.perf_counter() - t)
later.sort()
print(json.dumps({"first_ms": first * 1000, "later_ms": later[len(later) // 2] * 1000}))
