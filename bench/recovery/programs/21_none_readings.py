# TypeError: a missing reading (None) is left out of the total.
# Proceeds correctly when it prints:
#   total 5.0
readings = [1.5, None, 2.5, None, 1.0]
total = sum(readings)
print("total", total)
