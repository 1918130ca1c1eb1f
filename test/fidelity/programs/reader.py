# The slow-writer program: reads all of stdin at once while the writer trickles it in, then says
# what it got. CPython's sys.stdin.read() waits for end of file, however slow the writer.
import hashlib
import sys

data = sys.stdin.read()
print(len(data), "characters,", data.count("\n"), "lines")
print("sha256", hashlib.sha256(data.encode()).hexdigest())
print(data.splitlines()[-1])
