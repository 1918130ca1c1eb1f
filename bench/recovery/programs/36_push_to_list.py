# AttributeError: push means append.
# Proceeds correctly when it prints:
#   [1, 2, 3, 4]
items = [1, 2, 3]
items.push(4)
print(items)
