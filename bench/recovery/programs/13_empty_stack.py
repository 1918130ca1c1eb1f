# IndexError: with nothing to do the worker is 'idle'.
# Proceeds correctly when it prints:
#   job idle
stack = []
job = stack.pop()
print("job", job)
