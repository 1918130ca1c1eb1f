# ValueError: an absent colour's position is -1.
# Proceeds correctly when it prints:
#   pos -1
colors = ["red", "green", "blue"]
pos = colors.index("purple")
print("pos", pos)
