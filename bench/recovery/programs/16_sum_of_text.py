# TypeError: the amounts are numbers written as text.
# Proceeds correctly when it prints:
#   total 3.75
amounts = ["1.5", "2", "0.25"]
total = sum(amounts)
print("total", total)
