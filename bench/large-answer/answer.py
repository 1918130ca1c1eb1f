# bench/large-answer: one AI block whose answer is a long string; prints its length, then the peak
# resident set (VmHWM, KB) of the host (this interpreter's parent) and of this interpreter.
import os


def peak(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM"):
                return int(line.split()[1])
    return 0


text: str = the text to show
print(len(text), peak(os.getppid()), peak(os.getpid()), flush=True)
