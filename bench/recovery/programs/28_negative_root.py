# ValueError: the root of the magnitude is wanted.
# Proceeds correctly when it prints:
#   root 3.0
import math

x = -9
root = math.sqrt(x)
print("root", root)
