# IndexError: a missing trailing column is 0.
# Proceeds correctly when it prints:
#   bonus 0
row = ["Ana", "31", "Lisbon"]
bonus = int(row[3]) if row else 0
print("bonus", bonus)
