# ValueError: the code is hexadecimal.
# Proceeds correctly when it prints:
#   n 31
code = "0x1f"
n = int(code)
print("n", n)
