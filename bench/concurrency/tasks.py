# N asyncio tasks (argv[1]), one AI block each, gathered.
import asyncio
import sys


async def label(n):
    word: str = spell out the number n in English
    return word


async def main():
    await asyncio.gather(*(label(n) for n in range(int(sys.argv[1]))))


asyncio.run(main())
