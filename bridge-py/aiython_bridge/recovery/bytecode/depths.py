"""The stack depth before each instruction of a 3.11 code object (instrument.py
proves a checkpoint's layout with it): the code simulated from its start and from each
exception handler with opcode.stack_effect, every instruction reached at one depth only; and
the peak of a run of instructions.
"""

from __future__ import annotations

import opcode

from .code import END, JUMPS, RETURN_GENERATOR, START, TERMINAL, UNCONDITIONAL

__all__ = ["depths", "peak"]


def depths(found: list[tuple], by_start, entries) -> dict | None:
    """The stack depth before each instruction, by its start unit (None: unreached), or None
    when the code does not simulate consistently (then nothing is instrumented)."""
    count = len(found)
    at = [None] * count
    pending = [(0, 0)]
    for start, end, target, depth, lasti in entries:
        pending.append((target, depth + lasti + 1))
    effects = _EFFECTS
    while pending:
        unit, depth = pending.pop()
        index = by_start.get(unit)
        if index is None:
            continue
        while index < count:
            known = at[index]
            if known is not None:
                if known != depth:
                    return None
                break
            at[index] = depth
            _, _, op, arg, _, target = found[index]
            effect = effects.get((op, arg)) or _effect(op, arg)
            if target is not None:
                pending.append((target, depth + effect[1]))
            depth += effect[0]
            if depth < 0:
                return None
            if effect[2]:  # RETURN_VALUE, RAISE_VARARGS, RERAISE; an unconditional jump
                break
            index += 1
    return dict(zip(by_start, at))


_EFFECTS: dict = {}  # (op, arg): (effect falling through, effect jumping, ends the block)


def _effect(op: int, arg: int) -> tuple:
    stack_effect = opcode.stack_effect
    if op == RETURN_GENERATOR:
        effect = (1, 0, False)  # resumed, it leaves the sent value for the POP_TOP after it
    else:
        argument = arg if op >= opcode.HAVE_ARGUMENT else None
        if op in JUMPS:
            effect = (stack_effect(op, argument, jump=False), stack_effect(op, argument, jump=True), op in UNCONDITIONAL)
        else:
            effect = (stack_effect(op, argument), 0, False)
        if op in TERMINAL:
            effect = (effect[0], effect[1], True)
    _EFFECTS[(op, arg)] = effect
    return effect


def peak(found, run, depth_at) -> int:
    """The highest stack depth before or after an instruction of `run`."""
    get = depth_at.get
    highest = get(found[run[-1]][END]) or 0
    for number in run:
        depth = get(found[number][START])
        if depth is not None and depth > highest:
            highest = depth
    return highest
