"""Placeholder constants in compiled code, replaced by objects (recovery/instrument.py, blocks).

Generated calls into the bridge are compiled with a placeholder string where the object goes
(`"\\x00aiython:retry:…"[K + KEY_OFFSET]`, recovery/instrument.py), and `bind` replaces each
placeholder in the code object and every code object nested in it with the object itself:
`LOAD_CONST` then loads the bridge's object directly. So generated code looks nothing up in
builtins or globals (nothing is added to either, and it keeps working while the interpreter
finalizes, when builtins have been reset), and the code before binding depends only on the
source, so it can be cached.

`slots` finds where the placeholders are once (the preparation cache keeps it with the code), and
`bind_slots` then goes straight to them: on a cache hit, binding no longer reads every constant of
every code object (a large module has thousands). The slots keep each such code object's
bytecode too, handed to `code.replace`: without it, replace asks the code object for co_code,
which CPython rebuilds instruction by instruction (the largest part of binding sympy's modules).

A placeholder is a string a program would not write (a NUL byte and a fixed random suffix); a
program that did write one would have its string replaced, which is the price of this design.
"""

__all__ = ["ASKED", "CALLS", "CONTRACTS", "EXCEPTION", "KEY_OFFSET", "PREFIX", "RECURSION_ERROR", "bind", "bind_slots", "slots"]

_CODE = type(compile("", "", "exec"))
PREFIX = "\x00aiython:"  # every placeholder starts so (instrument.py's, program_code.BLOCKS)

# The checkpoint handlers' placeholders (recovery/instrument.py generates them): here, so that
# binding a cached file's code (program_code.Compiled.bind) loads nothing of the transform. A
# handler calls `CALLS[name][K + KEY_OFFSET]`: a subscript of a constant, so no name is added to
# the code's co_names. The offset is longer than any placeholder, so that the compiler's constant
# folding (which tries `"…"[K]` on the string) fails and leaves the subscript in place.
CALLS = {name: f"\x00aiython:{name}:7f3c2a"
         for name in ("retry", "raising", "binding", "value", "returned", "forget", "settle", "keep")}
KEY_OFFSET = 4096
# The calls whose answer is only true or false are asked as `K + KEY_OFFSET in CALLS[name]`
# instead: CONTAINS_OP has no inline cache, where BINARY_SUBSCR has four code units on 3.11.
# (`forget`, on the rare way out of a retry, stays a subscript: recovery/handler_lines.py knows a
# handler of ours by its load right after the exception's POP_TOP.)
ASKED = frozenset(("retry", "raising", "binding", "settle"))
EXCEPTION = "\x00aiython:Exception:7f3c2a"
RECURSION_ERROR = "\x00aiython:RecursionError:7f3c2a"
# The type-contract checks of `type_contracts = "all"` (typed_code/sites.py generates them).
CONTRACTS = "\x00aiython:contracts:7f3c2a"


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


def slots(code):
    """Where `code` holds placeholders (strings starting with PREFIX), or None when it holds
    none: `(((index, placeholder), …), ((index, nested), …), co_code, mark)`, its own constants
    and the code objects among them that hold some (`nested` the same shape for that code
    object), its bytecode, and a mark of the code object it was taken from (first line, lengths
    of its line and exception tables). Only tuples, ints, strings and bytes: the cache marshals
    it with the code."""
    own, nested = [], []
    for index, value in enumerate(code.co_consts):
        if type(value) is str and value.startswith(PREFIX):
            own.append((index, value))
        elif type(value) is _CODE:
            inner = slots(value)
            if inner is not None:
                nested.append((index, inner))
    return (tuple(own), tuple(nested), code.co_code, _mark(code)) if own or nested else None


def _mark(code):
    return (code.co_firstlineno, len(code.co_linetable), len(code.co_exceptiontable))


def bind_slots(code, where, mapping: dict):
    """bind(code, mapping) for a `where` that slots(code) gave, every key of `mapping` a
    placeholder. Each slot is checked against the constant it names: ValueError when one does
    not match (`where` is not this code's: use bind)."""
    if where is None:
        return code
    own, nested, co_code, mark = where
    if type(co_code) is not bytes or mark != _mark(code):
        raise ValueError("not this code object's slots")
    consts = code.co_consts
    new = list(consts)
    changed = False
    for index, placeholder in own:
        value = consts[index]
        if type(value) is not str or value != placeholder:
            raise ValueError("not a placeholder slot")
        if placeholder in mapping:
            new[index], changed = mapping[placeholder], True
    for index, inner in nested:
        value = consts[index]
        if type(value) is not _CODE:
            raise ValueError("not a code object slot")
        bound = bind_slots(value, inner, mapping)
        if bound is not value:
            new[index], changed = bound, True
    return code.replace(co_consts=tuple(new), co_code=co_code) if changed else code
