# TypeError: the sizes are numbers written as text.
# Proceeds correctly when it prints:
#   area 12
width, height = "4", "3"
area = width * height
print("area", area)
