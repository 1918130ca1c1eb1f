"""A small help desk: routes tickets and reads amounts from messy text, with AI blocks."""

from typing import Literal

Queue = Literal["bug", "billing"]


def route(ticket: str) -> Queue:
    queue: Queue = classify the ticket as a bug report or a billing question
    return queue


def refund_amount(line: str) -> float:
    amount: float = the amount of money in line, as a number
    return amount


def greeting(name: str) -> str:
    return write a one-line greeting for name
