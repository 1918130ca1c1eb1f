# ValueError: the line has an extra field; name and age are the first two.
# Proceeds correctly when it prints:
#   Ana 31
line = "Ana,31,Lisbon"
name, age = line.split(",")
print(name, age)
