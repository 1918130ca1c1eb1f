# TypeError: the label joins text and a number.
# Proceeds correctly when it prints:
#   item 7
n = 7
label = "item " + n
print(label)
