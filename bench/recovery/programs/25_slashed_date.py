# ValueError: the date is written with slashes.
# Proceeds correctly when it prints:
#   day 2024-03-05
from datetime import date

s = "2024/03/05"
day = date.fromisoformat(s)
print("day", day)
