# AttributeError: the configuration is a dict.
# Proceeds correctly when it prints:
#   host db.local
cfg = {"host": "db.local", "port": 5432}
host = cfg.host
print("host", host)
