# Classify 20 support tickets in a pool of worker processes. Each worker's AI block goes to the
# model while the others' do, up to max_concurrency requests in flight (default 8).
#
#   aiython examples/parallel.py
#
# With a model that answers in about 1 s, the 20 tickets take about 3 s (batches of 8, 8 and 4)
# rather than 20 s. Expected output (the time goes to stderr):
#   billing 10, bug 10
#   20 tickets classified in 3.2 s
import sys
import time
from collections import Counter
from multiprocessing import Pool
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


if __name__ == "__main__":
    started = time.perf_counter()
    with Pool(8) as pool:
        kinds = pool.map(classify, TICKETS)
    counts = Counter(kinds)
    print(f"billing {counts['billing']}, bug {counts['bug']}")
    print(f"{len(TICKETS)} tickets classified in {time.perf_counter() - started:.1f} s", file=sys.stderr)
