"""bytecode_handler.write_handler's handler written from a shape made once per process: the same
bytes, positions and exception-table entries as the Assembler lays out (a test compares the two
on every handler it meets), at a fraction of the cost.

A shape is one variant of the handler (with or without a binding, a `return` or not) laid out
around a copy of open length n: two byte formats (before and after the copy) whose `%c` slots
take the code object's constant and name indexes, K's index, the store instruction and the
one-byte jump distances (each a constant plus or minus n), and its exception-table regions.
`write` gives None where an argument would need EXTENDED_ARG (a long copy, 256 or more constants
or names); bytecode_instrument.py then uses the Assembler.
"""

from __future__ import annotations

from .bytecode_code import CACHES, EXTENDED_ARG, OP

METHODS = ("retry", "keep", "forget", "raising", "binding", "value", "returned")
_JUMP_BACKWARD = OP["JUMP_BACKWARD"]


class _Shape:
    """The handler of one variant, recorded by the same steps as write_handler takes."""

    def __init__(self, store: bool, returns: bool):
        self.formats, self.units = [bytearray(), bytearray()], [0, 0]
        self.slots = [[], []]  # per side: ("const", name) | ("key",) | ("jump", constant, coefficient) | ("store",)
        self.side, self.labels, self.marks, self.jumps = 0, {}, [], []
        self._record(store, returns)
        prefix = self.units[0]  # a unit u after the copy is at prefix + n + u
        for source_side, after, label, backward, slot in self.jumps:
            target_side, target = self.labels[label]
            sides = source_side - target_side if backward else target_side - source_side
            constant = after - target if backward else target - after
            slot[1], slot[2] = constant + sides * prefix, sides  # distance: slot[1] + slot[2] * n
        self.formats = [bytes(f) for f in self.formats]
        # Each region as (start, its side, end, its side, handler, its side, extra depth, lasti), a
        # unit on side 1 being at prefix + n + unit; the last region ends where the handler does.
        self.regions = []
        for index, (side, unit, region) in enumerate(self.marks):
            following = self.marks[index + 1] if index + 1 < len(self.marks) else (None, None, None)
            handler, extra, lasti = (self.labels[region[0]], region[1], region[2]) if region else ((None, None), 0, 0)
            self.regions.append((unit, side, following[1], following[0], handler[1], handler[0], extra, lasti))

    def fixed(self, name: str, arg: int = 0) -> None:
        op = OP[name]
        data = bytes((op, arg)) + bytes(2 * CACHES[op])
        self.formats[self.side] += data.replace(b"%", b"%%")
        self.units[self.side] += len(data) // 2

    def slotted(self, name: str, slot: tuple) -> list:
        op = OP[name]
        self.formats[self.side] += bytes((op,)).replace(b"%", b"%%") + b"%c" + bytes(2 * CACHES[op])
        self.units[self.side] += 1 + CACHES[op]
        slot = list(slot)
        self.slots[self.side].append(slot)
        return slot

    def jump(self, name: str, label: str) -> None:
        slot = self.slotted(name, ("jump", 0, 0))
        self.jumps.append((self.side, self.units[self.side], label, "BACKWARD" in name, slot))

    def label(self, name: str) -> None:
        self.labels[name] = (self.side, self.units[self.side])

    def mark(self, region) -> None:
        self.marks.append((self.side, self.units[self.side], region))

    def exception_then_retry(self, not_matching: str, declined: str) -> None:
        """`except Exception:` (else to `not_matching`), then `if R.retry(K):` (else to `declined`)."""
        self.slotted("LOAD_CONST", ("const", "exception"))
        self.fixed("CHECK_EXC_MATCH")
        self.jump("POP_JUMP_FORWARD_IF_FALSE", not_matching)
        self.fixed("POP_TOP")
        self.call("retry")
        self.jump("POP_JUMP_FORWARD_IF_FALSE", declined)

    def call(self, method: str, arguments: int = 1, head_only: bool = False) -> None:
        self.slotted("LOAD_CONST", ("const", "runtime"))
        self.slotted("LOAD_METHOD", ("const", method))
        self.slotted("LOAD_CONST", ("key",))
        if not head_only:
            self.fixed("PRECALL", arguments)
            self.fixed("CALL", arguments)

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
        if returns:
            self.call("keep", head_only=True)
        self.side = 1  # the copy goes here
        if returns:
            self.fixed("PRECALL", 2)
            self.fixed("CALL", 2)
            self.fixed("POP_TOP")
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
            self.formats[1] += b"%c%c"
            self.units[1] += 1
            self.slots[1].append(["store"])
            self.label("done")
        if returns:
            self.call("returned")
            self.fixed("SWAP", 2)
        self.mark(None)
        self.fixed("POP_EXCEPT")


_SHAPES: dict = {}


class Template:
    """One code object's handlers: its constant and name indexes for the shapes' slots."""

    def __init__(self, table, placeholders):
        runtime, exception, recursion = (table.const(value) for value in placeholders)
        self.values = {"runtime": runtime, "exception": exception, "recursion": recursion}
        self.values.update((method, table.name(method)) for method in METHODS)
        self.usable = max(self.values.values()) < 256
        self._arguments: dict = {}

    def _prepared(self, variant):
        """The shape and, per side, its arguments with the constants in place, and where the
        key, the jumps (constant, coefficient of n) and the store go."""
        prepared = self._arguments.get(variant)
        if prepared is None:
            shape = _SHAPES.get(variant)
            if shape is None:
                shape = _SHAPES[variant] = _Shape(*variant)
            sides = []
            for slots in shape.slots:
                arguments, keys, jumps, stores = [], [], [], []
                for slot in slots:
                    if slot[0] == "const":
                        arguments.append(self.values[slot[1]])
                    elif slot[0] == "key":
                        keys.append(len(arguments))
                        arguments.append(0)
                    elif slot[0] == "jump":
                        jumps.append((len(arguments), slot[1], slot[2]))
                        arguments.append(0)
                    else:
                        stores.append(len(arguments))
                        arguments += (0, 0)
                sides.append((arguments, keys, jumps, stores))
            prepared = self._arguments[variant] = (shape, sides)
        return prepared

    def write(self, point, key: int, base: int):
        """(bytes, position segments, entries) of `point`'s handler at unit `base`, or None."""
        store = point.store
        if key > 255 or (store is not None and (store[1] > 255 or CACHES[OP[store[0]]])):
            return None
        shape, sides = self._prepared((store is not None, point.returns))
        n = len(point.copy) // 2
        parts = []
        for (arguments, keys, jumps, stores), format_ in zip(sides, shape.formats):
            arguments = arguments[:]
            for index in keys:
                arguments[index] = key
            for index, constant, coefficient in jumps:
                distance = constant + coefficient * n
                if not 0 <= distance < 256:
                    return None
                arguments[index] = distance
            for index in stores:
                arguments[index], arguments[index + 1] = OP[store[0]], store[1]
            parts.append(format_ % tuple(arguments))
        out = bytearray(parts[0] + point.copy + parts[1])
        prefix = shape.units[0]
        _jump_back(out, base + len(out) // 2, point.end)
        end = base + len(out) // 2
        shift, depth, outer = prefix + n, point.depth, point.outer
        entries = []
        for start, side, until, until_side, handler, handler_side, extra, lasti in shape.regions:
            if handler is None and outer is None:
                continue
            start = base + start + side * shift
            until = end if until is None else base + until + until_side * shift
            if handler is None:
                entries.append([start, until, outer[2], outer[3], outer[4]])
            else:
                entries.append([start, until, base + handler + handler_side * shift, depth + extra, lasti])
        segments = [(prefix, point.position), point.copy_positions, (end - base - shift, point.position)]
        return bytes(out), segments, entries


def _jump_back(out: bytearray, unit: int, target: int) -> None:
    """JUMP_BACKWARD to `target` from `unit`, with the EXTENDED_ARG prefixes it needs."""
    extension = 0
    while unit + extension + 1 - target >= 256 ** (extension + 1):
        extension += 1
    distance = unit + extension + 1 - target
    for shift in range(extension, 0, -1):
        out.extend((EXTENDED_ARG, (distance >> (8 * shift)) & 0xFF))
    out.extend((_JUMP_BACKWARD, distance & 0xFF))
