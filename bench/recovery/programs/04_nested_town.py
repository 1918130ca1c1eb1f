# KeyError: the address names its city 'town'; a correct repair reads it.
# Proceeds correctly when it prints:
#   city Porto
user = {"name": "Bo", "address": {"street": "Main St", "town": "Porto"}}
city = user["address"]["city"]
print("city", city)
