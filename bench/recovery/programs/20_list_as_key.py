# TypeError: a list of tags becomes a hashable tuple.
# Proceeds correctly when it prints:
#   [('a', 'b'), ('c',)]
seen = {}
for tags in [["a", "b"], ["c"]]:
    seen[tags] = True
print(sorted(seen))
