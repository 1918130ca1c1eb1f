"""Placeholder constants in compiled code, replaced by objects (recovery/instrument.py, blocks).

Generated calls into the bridge are compiled with a placeholder string where the object goes
(`"\\x00aiython:checkpoints:…".retry(K)`), and `bind` replaces each placeholder in the code
object and every code object nested in it with the object itself: `LOAD_CONST` then loads the
runtime directly. So generated code looks nothing up in builtins or globals (nothing is added to
either, and it keeps working while the interpreter finalizes, when builtins have been reset), and
the code before binding depends only on the source, so it can be cached.

A placeholder is a string a program would not write (a NUL byte and a fixed random suffix); a
program that did write one would have its string replaced, which is the price of this design.
"""

_CODE = type(compile("", "", "exec"))

# The checkpoint handlers' placeholders (recovery/instrument.py generates them): here, so that
# binding a cached file's code (program_code.Compiled.bind) loads nothing of the transform.
CHECKPOINTS = "\x00aiython:checkpoints:7f3c2a"
EXCEPTION = "\x00aiython:Exception:7f3c2a"
RECURSION_ERROR = "\x00aiython:RecursionError:7f3c2a"


def bind(code, mapping: dict):
    """`code` with every constant that is a key of `mapping` replaced by its value."""
    consts = code.co_consts
    changed = False
    new = []
    for value in consts:
        if type(value) is str and value in mapping:
            value, changed = mapping[value], True
        elif type(value) is _CODE:
            bound = bind(value, mapping)
            changed = changed or bound is not value
            value = bound
        new.append(value)
    return code.replace(co_consts=tuple(new)) if changed else code
