import pytest

from aiython import AIError
from desk import greeting, refund_amount, route


def test_billing_ticket_goes_to_billing():
    assert route("I was charged twice, please refund me") == "billing"


def test_crash_report_goes_to_bugs():
    assert route("The app crashes when I press save") == "bug"


def test_amount_read_from_messy_line():
    assert refund_amount("refund: 12,50 EUR") == 12.5


def test_greeting_has_no_rule():
    with pytest.raises(AIError, match="no rule of"):
        greeting("Ada")
