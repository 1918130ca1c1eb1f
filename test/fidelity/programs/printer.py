# The slow-reader programs' printer: 23,000 numbered lines, about 1.3 MB, printed one at a time,
# so that the pipe fills and each write waits for the reader (CPython blocks; it never drops or
# raises). The last line proves the loop ran to its end.
import sys

ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

for number in range(23_000):
    print(f"{number:06d} {ALPHABET[number % 36:]}{ALPHABET[:number % 36]} {number * number:>12}")
print("done", file=sys.stderr)
