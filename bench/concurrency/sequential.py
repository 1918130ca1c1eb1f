# N AI blocks (argv[1]) one after another in one thread.
import sys


def label(n):
    word: str = spell out the number n in English
    return word


for n in range(int(sys.argv[1])):
    label(n)
