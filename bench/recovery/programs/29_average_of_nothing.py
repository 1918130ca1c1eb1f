# ZeroDivisionError: the average of no values is 0.0.
# Proceeds correctly when it prints:
#   avg 0.0
xs = []
avg = sum(xs) / len(xs)
print("avg", avg)
