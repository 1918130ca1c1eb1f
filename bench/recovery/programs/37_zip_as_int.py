# AttributeError: the ZIP code keeps its leading zero.
# Proceeds correctly when it prints:
#   zip 02134
zip_code = 2134
padded = zip_code.zfill(5)
print("zip", padded)
