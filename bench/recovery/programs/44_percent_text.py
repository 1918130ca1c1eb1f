# messy data: ValueError: a share written as a percentage is a fraction.
# Proceeds correctly when it prints:
#   share 0.45
text = "45%"
share = float(text)
print("share", share)
