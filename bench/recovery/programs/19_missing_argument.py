# TypeError: greet's default name is 'world'.
# Proceeds correctly when it prints:
#   hello world
def greet(name):
    return f"hello {name}"


greeting = greet()
print(greeting)
