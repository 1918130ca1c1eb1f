# Route support tickets with a typed AI step inside an ordinary loop, then summarise them.
#
#   aiython examples/tickets.py
#
# Expected output (the summary's wording depends on the model):
#   {'bug': ['The app crashes on login', 'Error 500 on save'], 'billing': ['I was charged twice', 'Refund please']}
#   Two billing tickets (a double charge and a refund) and two bugs (a login crash and a 500 on save).
from typing import Literal

tickets = ["I was charged twice", "The app crashes on login", "Refund please", "Error 500 on save"]
queues = {"bug": [], "billing": []}

for ticket in tickets:
    kind: Literal["bug", "billing"] = classify this ticket
    queues[kind].append(ticket)

summary = summarize the routed tickets in one sentence
print(queues)
print(summary)
