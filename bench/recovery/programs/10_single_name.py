# IndexError: a single name has an empty surname.
# Proceeds correctly when it prints:
#   surname []
parts = "Plato".split()
surname = parts[1]
print(f"surname [{surname}]")
