# IndexError: the last item is at len - 1.
# Proceeds correctly when it prints:
#   last c
items = ["a", "b", "c"]
last = items[len(items)]
print("last", last)
