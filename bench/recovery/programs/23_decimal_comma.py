# ValueError: the price is written with a decimal comma.
# Proceeds correctly when it prints:
#   price 12.5
text = "12,50"
price = float(text)
print("price", price)
