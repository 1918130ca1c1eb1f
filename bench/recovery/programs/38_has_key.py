# AttributeError: has_key is Python 2's 'in'.
# Proceeds correctly when it prints:
#   present True
d = {"a": 1}
present = d.has_key("a")
print("present", present)
