"""What checkpoints cost on the happy path, read from the bytecode with `dis` (SPEC §4.2: "the
hot path must cost nothing measurable", §12: ≤ 1.03 × CPython, hot loops with rarely executed
checkpointed statements included; bench/overhead.ts measures it).

The program is a trial-division prime sieve whose hot inner loop holds a rarely executed
checkpointed `is_p = False`. For one iteration of a loop, the instructions executed when every
condition in it is false (the common case: no break, no `is_p = False`) are read by walking the
bytecode, plain and instrumented:
- the inner loop runs exactly the same instructions on 3.11, 3.12 and 3.13, and no EXTENDED_ARG
  is anywhere in its range (3.11 lays exception handlers inline; the handler of `is_p = False`
  sits inside the loop and must keep its jumps under 256 code units);
- the outer loop, whose body executes the checkpointed `is_p = True` on every iteration, runs the
  same number of instructions on 3.12 and 3.13 (handlers are out of line there); on 3.11 it runs
  three more, and the test says exactly which: the JUMP_FORWARD over `is_p = True`'s inline
  handler, and one EXTENDED_ARG on each of the loop's FOR_ITER and JUMP_BACKWARD (the handlers of
  three checkpoints make the outer body longer than 255 code units).
"""

import dis
import sys
import textwrap
import unittest

from aiython_bridge.preparation.program_code import compile_plan
from aiython_bridge.recovery.checkpoints import CheckpointRuntime

SIEVE = textwrap.dedent("""\
    def primes(limit):
        found = []
        for n in range(2, limit):
            is_p = True
            for d in found:
                if d * d > n:
                    break
                if n % d == 0:
                    is_p = False
                    break
            if is_p:
                found.append(n)
        return found
    """)
OUTER_LINE, INNER_LINE = 3, 5


def function_code(module_code):
    return next(c for c in module_code.co_consts if isinstance(c, type(module_code)))


def compiled(instrumented):
    if not instrumented:
        return function_code(compile(SIEVE, "sieve.py", "exec", dont_inherit=True))
    runtime = CheckpointRuntime(None, project_root="/nonexistent")
    return function_code(compile_plan(SIEVE, "sieve.py", {}, checkpoints=runtime, entry=True))


class LoopPath:
    """The instructions of one iteration of the loop at `line`, every condition false: a
    conditional jump goes where a false condition sends it, a nested loop ends at once."""

    def __init__(self, code, line):
        self.instructions = list(dis.get_instructions(code))
        self.at = {ins.offset: n for n, ins in enumerate(self.instructions)}
        self.head = next(n for n, ins in enumerate(self.instructions)
                         if ins.opname == "FOR_ITER" and ins.positions.lineno == line)
        self.start = self.head
        while self.start > 0 and self.instructions[self.start - 1].opname == "EXTENDED_ARG":
            self.start -= 1  # a jump back lands on the prefix

    def walk(self) -> list:
        path = [ins.opname for ins in self.instructions[self.start:self.head + 1]]
        n = self.head + 1
        while len(path) < 1000:
            ins = self.instructions[n]
            path.append(ins.opname)
            if ins.opname.startswith("JUMP_BACKWARD") and self.at[ins.argval] in (self.start, self.head):
                return path
            if ins.opname.startswith(("JUMP_FORWARD", "JUMP_BACKWARD")) or "IF_FALSE" in ins.opname or (
                    ins.opname == "FOR_ITER" and n != self.head):
                n = self.at[ins.argval]
            else:
                n += 1
        raise AssertionError("the walk never came back to the loop's head")

    def extended_args_in_loop(self) -> int:
        back = max(n for n, ins in enumerate(self.instructions)
                   if ins.opname.startswith("JUMP_BACKWARD") and self.at[ins.argval] in (self.start, self.head))
        return sum(ins.opname == "EXTENDED_ARG" for ins in self.instructions[self.start:back + 1])


class HotLoopCost(unittest.TestCase):
    def setUp(self):
        self.plain, self.instrumented = compiled(False), compiled(True)

    def test_the_sieve_still_computes_primes(self):
        namespace = {}
        exec(compile(SIEVE, "sieve.py", "exec"), namespace)
        self.assertEqual(namespace["primes"](30), [2, 3, 5, 7, 11, 13, 17, 19, 23, 29])

    def test_the_hot_inner_loop_runs_the_same_instructions(self):
        plain = LoopPath(self.plain, INNER_LINE).walk()
        ours = LoopPath(self.instrumented, INNER_LINE).walk()
        self.assertEqual(ours, plain)
        self.assertNotIn("EXTENDED_ARG", ours)

    def test_no_extended_arg_anywhere_in_the_inner_loop(self):
        self.assertEqual(LoopPath(self.instrumented, INNER_LINE).extended_args_in_loop(), 0)

    def test_the_outer_loop_adds_exactly_what_the_docstring_says(self):
        plain = LoopPath(self.plain, OUTER_LINE).walk()
        ours = LoopPath(self.instrumented, OUTER_LINE).walk()
        if sys.version_info >= (3, 12):
            self.assertEqual(len(ours), len(plain))
            self.assertNotIn("EXTENDED_ARG", ours)
            return
        added = list(ours)
        for opname in plain:
            added.remove(opname)
        self.assertEqual(sorted(added), ["EXTENDED_ARG", "EXTENDED_ARG", "JUMP_FORWARD"])
        self.assertEqual(ours[:2], ["EXTENDED_ARG", "FOR_ITER"])
        self.assertEqual(ours[-2:], ["EXTENDED_ARG", "JUMP_BACKWARD"])


if __name__ == "__main__":
    unittest.main()
