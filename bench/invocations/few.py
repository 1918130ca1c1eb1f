# bench/invocations: blocks.py with 10 turns of its loop (the same source and plan, 90 fewer blocks).
total = 0
for i in range(10):
    n: int = pick a number close to i
    total += n
print(total)
