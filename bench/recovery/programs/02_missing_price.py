# KeyError: an item without a price costs nothing, so the order's total skips it.
# Proceeds correctly when it prints:
#   total 7.50
prices = {"tea": 3.5, "coffee": 4.0}
order = ["tea", "cake", "coffee"]
total = 0.0
for item in order:
    total += prices[item]
print(f"total {total:.2f}")
