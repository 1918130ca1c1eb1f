# bench/invocations: 100 one-line AI blocks whose inputs are small primitives.
total = 0
for i in range(100):
    n: int = pick a number close to i
    total += n
print(total)
