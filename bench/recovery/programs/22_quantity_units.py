# ValueError: the quantity is the number before its unit.
# Proceeds correctly when it prints:
#   qty 12
raw = " 12 units"
qty = int(raw)
print("qty", qty)
