# A project module whose statement fails for its caller to handle (a checkpoint with a model configured).


def parse(text):
    value = int(text)
    return value


def parse_all(texts):
    out = []
    for text in texts:
        try:
            out.append(parse(text))
        except ValueError:
            out.append(None)
    return out
