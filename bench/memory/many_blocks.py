# bench/memory: one AI block asked N times (argv[1]); at the marks the resident set of the host
# (this interpreter's parent) and of this interpreter, then the peak of each so far (VmHWM), in
# KB, one line each.
import os
import sys


def kb(pid, key):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key):
                return int(line.split()[1])
    return 0


host = os.getppid()
marks = {100, 1000, 10000}
for i in range(1, int(sys.argv[1]) + 1):
    n: int = pick a number close to zero
    if i in marks:
        me = os.getpid()
        print(i, kb(host, "VmRSS"), kb(me, "VmRSS"), kb(host, "VmHWM"), kb(me, "VmHWM"), flush=True)
