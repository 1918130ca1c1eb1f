# messy data: ValueError: one date is written day.month.year.
# Proceeds correctly when it prints:
#   ['2024-03-01', '2024-03-05', '2024-03-09']
from datetime import datetime

parsed = []
for d in ["2024-03-01", "05.03.2024", "2024-03-09"]:
    parsed.append(datetime.strptime(d, "%Y-%m-%d").date())
print([p.isoformat() for p in parsed])
