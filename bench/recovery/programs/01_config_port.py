# KeyError: the setting is stored under an upper-case key; a correct repair reads it.
# Proceeds correctly when it prints:
#   port 8080
config = {"HOST": "db.local", "PORT": "8080"}
port = int(config["port"])
print("port", port)
