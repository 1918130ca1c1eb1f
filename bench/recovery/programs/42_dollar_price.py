# messy data: ValueError: the price carries its currency sign.
# Proceeds correctly when it prints:
#   cents 499
price = "$4.99"
cents = round(float(price) * 100)
print("cents", cents)
