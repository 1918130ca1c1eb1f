# bench/memory: one AI block asked N times (argv[1]); at the marks the resident set of the host
# (this interpreter's parent) and of this interpreter, in KB, one line each.
import os
import sys


def rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    return 0


host = os.getppid()
marks = {100, 1000, 10000}
for i in range(1, int(sys.argv[1]) + 1):
    n: int = pick a number close to zero
    if i in marks:
        print(i, rss(host), rss(os.getpid()), flush=True)
