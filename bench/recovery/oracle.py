"""The oracle of the recovery corpus, run by `aiython eval` as each program's check.

It reads the run's stdout on stdin, the program's path from AIYTHON_EVAL_PROGRAM and the run's
exit status from AIYTHON_EVAL_EXIT. A run *proceeds* when it exits 0 (eval reports the status);
it *proceeds correctly* when, besides, its stdout is exactly what the program's header promises
under "Proceeds correctly when it prints:". Exit 0 when it proceeded correctly, 1 otherwise, with
the reason on stderr.
"""

import os
import sys

MARK = "# Proceeds correctly when it prints:"


def expected_output(program):
    with open(program, encoding="utf-8") as source:
        lines = source.read().split("\n")
    start = lines.index(MARK) + 1
    promised = []
    for line in lines[start:]:
        if not line.startswith("#   "):
            break
        promised.append(line[4:] + "\n")
    return "".join(promised)


def main():
    program = os.environ["AIYTHON_EVAL_PROGRAM"]
    output = sys.stdin.read()
    if os.environ.get("AIYTHON_EVAL_EXIT") != "0":
        sys.exit(f"did not proceed: exit {os.environ.get('AIYTHON_EVAL_EXIT')}")
    expected = expected_output(program)
    if output != expected:
        sys.exit(f"proceeded incorrectly: printed {output!r}, expected {expected!r}")


if __name__ == "__main__":
    main()
