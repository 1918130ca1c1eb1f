# ZeroDivisionError: a row without items has no mean and is left out.
# Proceeds correctly when it prints:
#   {'a': 2.5, 'c': 3.0}
rows = [("a", 10.0, 4), ("b", 3.0, 0), ("c", 9.0, 3)]
means = {}
for name, total, count in rows:
    means[name] = total / count
print(means)
