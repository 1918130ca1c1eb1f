# A typed result: the model's answer is checked against a dataclass before Python sees it, and
# converted exactly (a JSON object becomes an Invoice, its list of lines a tuple of Lines).
#
#   aiython examples/typed_results.py
#
# Expected output (values depend on the model):
#   Invoice(number='INV-1042', total=1510.0, lines=(Line(item='Consulting', amount=1200.0), Line(item='Travel', amount=310.0)))
#   total matches lines: True
from dataclasses import dataclass


@dataclass
class Line:
    item: str
    amount: float


@dataclass
class Invoice:
    number: str
    total: float
    lines: tuple[Line, ...]


email = """Hi, please find invoice INV-1042 attached: consulting 1,200.00 EUR and travel 310.00 EUR,
1,510.00 EUR in total. Regards, Ana"""

invoice: Invoice = extract the invoice from the email
print(invoice)
print("total matches lines:", abs(sum(line.amount for line in invoice.lines) - invoice.total) < 0.01)
