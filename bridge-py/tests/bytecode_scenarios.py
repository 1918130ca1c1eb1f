"""Recovery scenarios for the two checkpoint paths (tests/test_bytecode_checkpoints.py): each
program runs as an imported module's code instrumented by the AST path or by the 3.11 bytecode
path, and `observe` gives everything the program or its user can see of the run.
"""

import ast

from aiython_bridge.preparation import program_code
from aiython_bridge.recovery import instrument
from tests.program_harness import Program, program_traceback

PLACEHOLDERS = (instrument.CALLS, instrument.EXCEPTION, instrument.RECURSION_ERROR)


def compiled_by(path_kind, source, filename):
    tree = ast.parse(source, filename)
    if path_kind == "bytecode":
        compiled = program_code._selected_in_bytecode(source, filename, tree, "prog.py", False, None)
        assert compiled is not None, "the bytecode path refused the program"
        return compiled
    result, ranges = instrument.instrument_selected(tree, source=source, entry=False, name="prog.py")
    code = compile(tree, filename, "exec", dont_inherit=True)
    return program_code.Compiled(code, result.checkpoints, ranges)


def observe(test, path_kind, source, decide):
    program = Program(test, source, decide)
    compiled = compiled_by(path_kind, program.source, program.path)
    program.compile = lambda instrumented: compiled.bind(checkpoints=program.runtime, filename=program.path)
    out, error = program.run()
    requests = [(r["statement"], r["target"], r["recovery"]["attempt"], r["recovery"]["exception_type"],
                 r["recovery"]["message"], r["location"]["line"], r["recovery"]["retry_allowed"]) for r in program.requests]
    ending = None
    if error is not None:
        chain, exc = [], error.__context__
        while exc is not None:
            chain.append(repr(exc))
            exc = exc.__context__
        lines, tb = [], error.__traceback__
        while tb is not None:
            lines.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
            tb = tb.tb_next
        ending = (repr(error), getattr(error, "__notes__", None), chain, lines,
                  program_traceback(error).replace(program.root, "ROOT"))
    return out, requests, ending


def retry_after(code):
    def decide(request, op):
        assert op("execute", {"code": code})["ok"]
        assert op("recover", {"action": "retry"})["ok"]
    return decide


def complete(value=None):
    def decide(request, op):
        args = {"action": "complete"}
        if value is not None:
            args["outcome"] = {"kind": "literal", "value": value}
        assert op("recover", args)["ok"]
    return decide


def always(action, **extra):
    return lambda request, op: op("recover", dict(action=action, **extra))


SHOW = """
import sys
def show(label, fn, *args):
    print(label, repr(fn(*args)), sys.exception())
    print(label, "after", sys.exception())
"""

# name -> (program, decision, what the program prints under either path)
SCENARIOS = {
    "complete without outcome": ("""
        def f():
            x = undefined_name
            return "went on"
        show("f", f)
    """, complete(), "f 'went on' None\nf after None\n"),
    "complete with outcome": ("""
        def f():
            name = user_name
            return "hello " + name
        show("f", f)
    """, complete("Ada"), "f 'hello Ada' None\nf after None\n"),
    "closure cell": ("""
        def outer():
            x = 0
            def inner():
                return x
            x = missing + 1
            return inner()
        show("outer", outer)
    """, complete(5), "outer 5 None\nouter after None\n"),
    "class body": ("""
        def make():
            class C:
                value = missing_value
                __hidden = other_missing
            return C.value, C._C__hidden
        show("make", make)
    """, complete(7), "make (7, 7) None\nmake after None\n"),
    "module level": ("""
        for attempt in range(2):
            if attempt:
                value = missing_module_value
        print(value, sys.exception())
    """, complete(8), "8 None\n"),
    "global": ("""
        def g():
            global G
            G = missing
            return G
        show("g", g)
        print(G)
    """, complete(3), "g 3 None\ng after None\n3\n"),
    "retry succeeding": ("""
        data = {}
        def f():
            v = data["k"]
            total = v + 1
            return total
        show("f", f)
    """, retry_after("data['k'] = 41"), "f 42 None\nf after None\n"),
    "retry failing twice": ("""
        attempts = []
        data = {}
        def read():
            attempts.append(1)
            value = data[len(attempts)]
            return value
        def bump():
            attempts.append(0)
        def run():
            value = data[bump() or len(attempts)]
            return value
        show("run", run)
    """, always("retry"), None),
    "reraise with the note": ("""
        def ratio(a, b):
            return a / b
        show("ratio", ratio, 1, 0)
        ratio(2, 0)
    """, always("reraise", explanation="b is zero by design"), None),
    "return retried and completed": ("""
        data = {}
        def f():
            return data["k"] * 2
        def g():
            return missing_name
        show("f", f)
        show("g", g)
    """, lambda request, op: retry_after("data['k'] = 21")(request, op) if request["target"] is None
        and "data" in request["statement"] else complete()(request, op), "f 42 None\nf after None\ng None None\ng after None\n"),
    "loops": ("""
        data = {}
        def f(rows):
            out = []
            for row in rows:
                for cell in row:
                    i = 0
                    while i < 2:
                        out.append(data[cell] + i)
                        i += 1
                    if cell == "b":
                        return out[-1] + data["z"]
            return out
        show("f", f, ["ab", "c"])
    """, lambda request, op: retry_after("data.update(a=1, b=2, c=3, z=100)")(request, op), "f 103 None\nf after None\n"),
    "except and finally bodies": ("""
        def f(x):
            try:
                return 1 / x
            except ZeroDivisionError as error:
                fallback = compute(error)
                return fallback + inner_missing
            finally:
                done = finish_missing
        show("f", f, 0)
    """, lambda request, op: complete(1 if request["target"] else None)(request, op), "f None None\nf after None\n"),
    "a finally body while an exception passes": ("""
        import functools
        class Box:
            @functools.lru_cache
            @staticmethod
            def h(n):
                try:
                    raise KeyError(n)
                finally:
                    for i in range(n):
                        note = finish_missing + i
        show("h", Box.h, 2)
    """, complete(4), None),
    "recursion": ("""
        def down(n):
            value = down(n + 1)
            return value
        down(0)
    """, always("reraise", explanation="unbounded"), None),
    "base exception during a retry": ("""
        source = ["int('first')"]
        def f():
            x = eval(source[0])
            return x
        show("f", f)
    """, retry_after("source[0] = \"exec('raise KeyboardInterrupt(\\\"second\\\")')\""), None),
    "coroutine": ("""
        import asyncio
        data = {}
        async def get():
            value = await asyncio.sleep(0, data["k"])
            return value + await asyncio.sleep(0, data["j"])
        print(asyncio.run(get()))
    """, lambda request, op: retry_after("data.update(k=5, j=6)")(request, op), "11\n"),
    "generator and augmented assignment": ("""
        data = {}
        def numbers(limit):
            total = 0
            for i in range(limit):
                received = yield i + data["offset"]
                total += received or missing_step
            return total
        g = numbers(2)
        print(next(g), g.send(None), g.send(None) if False else None)
    """, lambda request, op: (retry_after("data['offset'] = 10") if "offset" in request["statement"] else complete(1))(request, op),
        "10 11 None\n"),
    "constants the compiler loads before a statement": ("""
        data = {}
        class Lexer:
            pattern = r"[a-z]"
            combined = "(%s)(%s)" % (pattern, data["k"])
            tokens = {"root": [combined, data["t"]]}
            def cls(self):
                return __class__
        def f(x):
            try:
                if x:
                    level = ""
                else:
                    level = "{%s}" % data["n"]
                shown = "<%s %r>" % (level, data["r"])
                return 0
            finally:
                if x is not None:
                    closed = data["c"] + 1
        show("f", f, 0)
        print(Lexer.combined, Lexer.tokens, Lexer().cls().__name__)
    """, lambda request, op: retry_after("data.update(k='K', t=1, n=3, r='R', c=1)")(request, op),
        "f 0 None\nf after None\n([a-z])(K) {'root': ['([a-z])(K)', 1]} Lexer\n"),
}
