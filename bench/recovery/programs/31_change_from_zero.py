# ZeroDivisionError: a change from zero is undefined: None.
# Proceeds correctly when it prints:
#   change None
old, new = 0, 50
change = (new - old) / old * 100
print("change", change)
