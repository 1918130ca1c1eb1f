# IndexError: no scores means a top score of 0.
# Proceeds correctly when it prints:
#   top 0
scores = []
top = sorted(scores, reverse=True)[0]
print("top", top)
