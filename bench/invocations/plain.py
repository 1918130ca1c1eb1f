# bench/invocations: the same loop with the block replaced by Python (the baseline).
total = 0
for i in range(100):
    n: int = 0
    total += n
print(total)
