# N threads (argv[1]), one AI block each, all at once.
import sys
import threading


def label(n):
    word: str = spell out the number n in English
    return word


threads = [threading.Thread(target=label, args=(n,)) for n in range(int(sys.argv[1]))]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
