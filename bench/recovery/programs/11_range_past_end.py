# IndexError: the loop runs one step too far; the total is the sum of the list.
# Proceeds correctly when it prints:
#   total 15
xs = [4, 5, 6]
total = 0
for i in range(len(xs) + 1):
    total += xs[i]
print("total", total)
