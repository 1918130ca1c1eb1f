# bench/overhead: a CPU-bound program (loops, calls, methods, comprehensions, closures, generators)
# that times its own work with time.perf_counter, so interpreter start-up is not measured.
# Prints one line: `elapsed <seconds>` (best of REPEATS) and a checksum so both runs can be compared.
import time

REPEATS = 5  # the best of several repeats: the least disturbed by other load on the machine


class Vector:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def add(self, other):
        return Vector(self.x + other.x, self.y + other.y)

    def dot(self, other):
        return self.x * other.x + self.y * other.y


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def sieve(limit):
    flags = [True] * (limit + 1)
    flags[0] = flags[1] = False
    for i in range(2, int(limit ** 0.5) + 1):
        if flags[i]:
            for j in range(i * i, limit + 1, i):
                flags[j] = False
    return [i for i, flag in enumerate(flags) if flag]


def vectors(n):
    total = Vector(0, 0)
    acc = 0
    for i in range(n):
        v = Vector(i, i + 1)
        total = total.add(v)
        acc += v.dot(total) % 7
    return acc


def words(n):
    counts = {}
    for i in range(n):
        word = "w" + str(i % 97)
        counts[word] = counts.get(word, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return sum(len(key) * value for key, value in ranked)


def pipeline(n):
    def scale(k):
        return lambda v: v * k

    double = scale(2)
    evens = (double(i) for i in range(n) if i % 3)
    squares = {i: i * i for i in range(n // 10)}
    total = 0
    for value in evens:
        total += value
    return total + sum(squares.values())


PARTS = [(fib, 25), (lambda n: len(sieve(n)), 400_000), (vectors, 250_000), (words, 250_000), (pipeline, 400_000)]


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
