# messy data: ValueError: the number has thousands separators.
# Proceeds correctly when it prints:
#   population 1234567
value = "1,234,567"
population = int(value)
print("population", population)
