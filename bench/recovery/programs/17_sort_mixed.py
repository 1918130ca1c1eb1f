# TypeError: the values are all numbers, some written as text.
# Proceeds correctly when it prints:
#   [9, 10, 25, 100]
values = [10, "9", 100, "25"]
ordered = sorted(values)
print(ordered)
