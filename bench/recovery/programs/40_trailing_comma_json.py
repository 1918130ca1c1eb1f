# messy data: JSONDecodeError: the JSON has a trailing comma.
# Proceeds correctly when it prints:
#   sum 3
import json

text = '{"a": 1, "b": 2,}'
data = json.loads(text)
print("sum", data["a"] + data["b"])
