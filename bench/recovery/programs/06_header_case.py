# KeyError: HTTP header names are case-insensitive; a correct repair finds the header.
# Proceeds correctly when it prints:
#   type application/json
headers = {"content-type": "application/json", "content-length": "42"}
ctype = headers["Content-Type"]
print("type", ctype)
