# Classify 200 support tickets at half price: with --batch, the blocks that the pool's threads
# reach wait together in one batch of the provider's Batch API, instead of 200 live requests.
#
#   aiython --batch --stats examples/batch_classify.py
#
# The threads matter: a block waits for its answer, so only blocks reached at the same time can
# share a batch (here all 200). A batch is answered within 24 h, most within minutes to an hour;
# a run killed meanwhile goes on with `aiython resume`. Expected output:
#   billing 100, bug 100
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

TICKETS = [
    "I was charged twice", "The app crashes on login", "Refund please", "Error 500 on save",
    "My invoice is wrong", "The export button does nothing", "Payment failed but money left my account",
    "Search returns nothing", "Please refund my last order", "Dark mode resets after restart",
    "I was charged after cancelling", "The page freezes on upload", "Where is my invoice for March?",
    "Notifications arrive twice", "Can I pay by bank transfer?", "Login loops back to the start",
    "The payment page times out", "Images do not load on mobile", "Charge on my card I do not recognise",
    "Settings are not saved",
]


def classify(ticket: str) -> str:
    kind: Literal["bug", "billing"] = classify this ticket
    return kind


tickets = [f"{text} (order {n})" for n in range(10) for text in TICKETS]
with ThreadPoolExecutor(max_workers=len(tickets)) as pool:
    kinds = Counter(pool.map(classify, tickets))
print(", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())))
