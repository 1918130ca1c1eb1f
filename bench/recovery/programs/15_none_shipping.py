# TypeError: missing shipping is free.
# Proceeds correctly when it prints:
#   total 20.0
subtotal = 20.0
shipping = None
total = subtotal + shipping
print("total", total)
