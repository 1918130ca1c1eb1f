# messy data: ValueError: the CSV field is a quoted amount with a thousands separator.
# Proceeds correctly when it prints:
#   amount 1200.0
fields = "INV-7,Ana,\"1,200.00\"".split(",", 2)
amount = float(fields[2])
print("amount", amount)
