"""The shapes template.Template writes handlers from: each variant of
handler.write_handler's handler (with or without a binding, a `return` or not)
recorded once per process by the same steps, around a copy of open length n, as the bytes
before and after the copy with the byte offset of each argument filled per code object (a
constant's or name's index), per handler (the key, the store) or per copy length (a jump's
distance), and its exception-table regions; and, per copy length, the jump distances and the
regions in units after the handler's start.
"""

from __future__ import annotations

from ...preparation.code_constants import ASKED
from .code import CACHES, OP

__all__ = ["for_length", "shape"]


class _Shape:
    """The handler of one variant, recorded by the same steps as write_handler takes."""

    def __init__(self, store: bool, returns: bool):
        self.raw, self.units = [bytearray(), bytearray()], [0, 0]
        # [kind, side, byte offset, …]: ("const", name) | ("key",) | ("jump", constant, coefficient) | ("store",)
        self.slots = []
        self.side, self.labels, self.marks, self.jumps = 0, {}, [], []
        self._record(store, returns)
        prefix = self.units[0]  # a unit u after the copy is at prefix + n + u
        for source_side, after, label, backward, slot in self.jumps:
            target_side, target = self.labels[label]
            sides = source_side - target_side if backward else target_side - source_side
            constant = after - target if backward else target - after
            slot[3], slot[4] = constant + sides * prefix, sides  # distance: slot[3] + slot[4] * n
        self.raw = [bytes(side) for side in self.raw]
        self.consts = [(slot[1], slot[2], slot[3]) for slot in self.slots if slot[0] == "const"]
        self.keys = [[slot[2] for slot in self.slots if slot[0] == "key" and slot[1] == side] for side in (0, 1)]
        self.stores = [slot[2] for slot in self.slots if slot[0] == "store"]
        self.jump_slots = [(slot[1], slot[2], slot[3], slot[4]) for slot in self.slots if slot[0] == "jump"]
        self.by_length = {}
        # Each region as (start, its side, end, its side, handler, its side, extra depth, lasti), a
        # unit on side 1 being at prefix + n + unit; the last region ends where the handler does.
        self.regions = []
        for index, (side, unit, region) in enumerate(self.marks):
            following = self.marks[index + 1] if index + 1 < len(self.marks) else (None, None, None)
            handler, extra, lasti = (self.labels[region[0]], region[1], region[2]) if region else ((None, None), 0, 0)
            self.regions.append((unit, side, following[1], following[0], handler[1], handler[0], extra, lasti))

    def fixed(self, name: str, arg: int = 0) -> None:
        op = OP[name]
        self.raw[self.side] += bytes((op, arg)) + bytes(2 * CACHES[op])
        self.units[self.side] += 1 + CACHES[op]

    def slotted(self, name: str, slot: tuple) -> list:
        op = OP[name]
        slot = [slot[0], self.side, len(self.raw[self.side]) + 1] + list(slot[1:])
        self.raw[self.side] += bytes((op, 0)) + bytes(2 * CACHES[op])
        self.units[self.side] += 1 + CACHES[op]
        self.slots.append(slot)
        return slot

    def jump(self, name: str, label: str) -> None:
        slot = self.slotted(name, ("jump", 0, 0))
        self.jumps.append((self.side, self.units[self.side], label, "BACKWARD" in name, slot))

    def label(self, name: str) -> None:
        self.labels[name] = (self.side, self.units[self.side])

    def mark(self, region) -> None:
        self.marks.append((self.side, self.units[self.side], region))

    def exception_then_retry(self, not_matching: str, declined: str) -> None:
        """`except Exception:` (else to `not_matching`), then `if K in retry:` (else to `declined`)."""
        self.slotted("LOAD_CONST", ("const", "exception"))
        self.fixed("CHECK_EXC_MATCH")
        self.jump("POP_JUMP_FORWARD_IF_FALSE", not_matching)
        self.fixed("POP_TOP")
        self.call("retry")
        self.jump("POP_JUMP_FORWARD_IF_FALSE", declined)

    def call(self, method: str, head_only: bool = False) -> None:
        if method in ASKED:  # K in NAME
            self.slotted("LOAD_CONST", ("key",))
            self.slotted("LOAD_CONST", ("const", method))
            self.fixed("CONTAINS_OP", 0)
            return
        self.slotted("LOAD_CONST", ("const", method))
        self.slotted("LOAD_CONST", ("key",))
        if not head_only:
            self.fixed("BINARY_SUBSCR")

    def cleanup(self) -> None:
        self.fixed("COPY", 3)
        self.fixed("POP_EXCEPT")
        self.fixed("RERAISE", 1)

    def _record(self, store: bool, returns: bool) -> None:
        # Regions: (handler label, depth over the statement's, lasti); None: the statement's own.
        body, retry, leaving = ("cleanup", 1, 1), ("retry_handler", 1, 0), ("forget", 1, 0)
        inner, forget_body = ("inner_cleanup", 2, 1), ("forget_cleanup", 2, 1)
        self.mark(body)
        self.fixed("PUSH_EXC_INFO")
        self.slotted("LOAD_CONST", ("const", "recursion"))
        self.fixed("CHECK_EXC_MATCH")
        self.fixed("POP_JUMP_FORWARD_IF_FALSE", 2)
        self.fixed("POP_TOP")
        self.fixed("RAISE_VARARGS", 0)
        self.exception_then_retry("reraise", "decide")
        self.mark(retry)
        self.label("loop")
        self.side = 1  # the copy goes here
        if returns:
            self.call("keep", head_only=True)
            self.fixed("STORE_SUBSCR")
        self.mark(leaving)
        self.jump("JUMP_FORWARD", "decide")
        self.mark(inner)
        self.label("retry_handler")
        self.fixed("PUSH_EXC_INFO")
        self.exception_then_retry("inner_reraise", "give_up")
        self.mark(leaving)
        self.fixed("POP_EXCEPT")
        self.jump("JUMP_BACKWARD", "loop")
        self.label("give_up")
        self.fixed("POP_EXCEPT")
        self.jump("JUMP_FORWARD", "decide")
        self.mark(inner)
        self.label("inner_reraise")
        self.fixed("RERAISE", 0)
        self.mark(leaving)
        self.label("inner_cleanup")
        self.cleanup()
        self.mark(forget_body)
        self.label("forget")
        self.fixed("PUSH_EXC_INFO")
        self.fixed("POP_TOP")
        self.call("forget")
        self.fixed("POP_TOP")
        self.fixed("RAISE_VARARGS", 0)
        self.mark(body)
        self.label("forget_cleanup")
        self.cleanup()
        self.label("reraise")
        self.fixed("RERAISE", 0)
        self.mark(None)
        self.label("cleanup")
        self.cleanup()
        self.mark(body)
        self.label("decide")
        self.call("raising")
        self.jump("POP_JUMP_FORWARD_IF_FALSE", "raising")
        self.fixed("RAISE_VARARGS", 0)
        self.label("raising")
        if store:
            self.call("binding")
            self.jump("POP_JUMP_FORWARD_IF_FALSE", "done")
            self.call("value")
            self.slots.append(["store", 1, len(self.raw[1])])
            self.raw[1] += bytes(2)
            self.units[1] += 1
            self.label("done")
        if returns:
            self.call("returned")
            self.fixed("SWAP", 2)
        self.mark(None)
        self.fixed("POP_EXCEPT")


_SHAPES: dict = {}


def shape(variant) -> _Shape:
    found = _SHAPES.get(variant)
    if found is None:
        found = _SHAPES[variant] = _Shape(*variant)
    return found


def for_length(shape, n: int):
    """The jump distances for a copy of n units ([(side, byte offset, distance)]), and the
    regions as units after the handler's start (None: its end; handler None: the statement's
    own); None where a distance needs EXTENDED_ARG."""
    found = shape.by_length.get(n)
    if found is None:
        distances = [(side, offset, constant + coefficient * n) for side, offset, constant, coefficient in shape.jump_slots]
        if not all(0 <= distance < 256 for _, _, distance in distances):
            shape.by_length[n] = False
            return None
        shift = shape.units[0] + n
        regions = [(start + side * shift, None if until is None else until + until_side * shift,
                    None if handler is None else handler + handler_side * shift, extra, lasti)
                   for start, side, until, until_side, handler, handler_side, extra, lasti in shape.regions]
        found = shape.by_length[n] = ([d for d in distances if d[0] == 0], [d for d in distances if d[0] == 1], regions)
    return found or None
