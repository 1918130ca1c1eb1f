"""The far end of a real pipe, for the fidelity harness (test/fidelity/run-mode.ts).

    python3 pipe_driver.py read CHUNK PAUSE_MS -- PROGRAM...
        runs PROGRAM with its stdout on a pipe, reads it CHUNK bytes at a time with a pause of
        PAUSE_MS after each read, and copies what it read to its own stdout.
    python3 pipe_driver.py write CHUNK PAUSE_MS FILE -- PROGRAM...
        runs PROGRAM with its stdin on a pipe, writes FILE into it CHUNK bytes at a time with a
        pause of PAUSE_MS after each write, then closes it.

PROGRAM's other streams are this process's own. Exits with PROGRAM's status, 128+n when signal n
ended it, as a shell reports it. Node's 'pipe' stdio is a socketpair, not a pipe; this is how the
harness puts a program on the kind of pipe a shell gives it (`program | less`, `cat f | program`).
"""

import os
import subprocess
import sys
import time


def read_slowly(program, chunk, pause):
    child = subprocess.Popen(program, stdout=subprocess.PIPE)
    out = sys.stdout.buffer
    while data := os.read(child.stdout.fileno(), chunk):
        out.write(data)
        out.flush()
        time.sleep(pause)
    return child.wait()


def write_slowly(program, chunk, pause, path):
    with open(path, "rb") as f:
        data = f.read()
    child = subprocess.Popen(program, stdin=subprocess.PIPE)
    fd = child.stdin.fileno()
    try:
        for start in range(0, len(data), chunk):
            os.write(fd, data[start:start + chunk])
            time.sleep(pause)
    except BrokenPipeError:
        print(f"pipe_driver: the program closed its stdin after {start} of {len(data)} bytes", file=sys.stderr)
    child.stdin.close()
    return child.wait()


def main(argv):
    split = argv.index("--")
    options, program = argv[:split], argv[split + 1:]
    mode, chunk, pause = options[0], int(options[1]), int(options[2]) / 1000
    if mode == "read":
        status = read_slowly(program, chunk, pause)
    else:
        status = write_slowly(program, chunk, pause, options[3])
    return 128 - status if status < 0 else status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
