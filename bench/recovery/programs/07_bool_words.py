# KeyError: 'Yes' means enabled.
# Proceeds correctly when it prints:
#   enabled True
flag = "Yes"
enabled = {"true": True, "false": False}[flag]
print("enabled", enabled)
