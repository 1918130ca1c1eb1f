# W pool worker processes (argv[1]) x B blocks each (argv[2]).
import multiprocessing as mp
import sys


def label(n):
    word: str = spell out the number n in English
    return word


if __name__ == "__main__":
    workers, blocks = int(sys.argv[1]), int(sys.argv[2])
    with mp.Pool(workers) as pool:
        pool.map(label, range(workers * blocks), chunksize=blocks)
