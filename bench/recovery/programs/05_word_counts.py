# KeyError: a word seen for the first time starts at zero.
# Proceeds correctly when it prints:
#   [('and', 1), ('cat', 2), ('dog', 1), ('saw', 1), ('the', 3)]
words = "the cat saw the dog and the cat".split()
counts = {}
for word in words:
    counts[word] += 1
print(sorted(counts.items()))
