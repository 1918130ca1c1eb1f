# AttributeError: a missing name is empty.
# Proceeds correctly when it prints:
#   name []
raw = None
name = raw.strip()
print(f"name [{name}]")
