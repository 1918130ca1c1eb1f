"""The programs test_instrument.py runs plainly and instrumented (SAME_OUTPUT): one behaviour each,
printed so that a change of semantics would alter what it prints.
"""

SAME_OUTPUT = {
    "generators": """
        def numbers(limit):
            total = 0
            for i in range(limit):
                received = yield i
                total += received or 0
            return total
        def delegate():
            result = yield from numbers(3)
            yield ("returned", result)
        g = delegate()
        print(next(g), g.send(10), g.send(20), next(g))
        squares = (n * n for n in range(4))
        print(list(squares))
    """,
    "coroutines and async generators": """
        import asyncio
        async def ticker(n):
            for i in range(n):
                await asyncio.sleep(0)
                yield i
        async def collect():
            values = [v async for v in ticker(3)]
            values.append(await asyncio.sleep(0, result="slept"))
            return values
        async def main():
            results = await asyncio.gather(collect(), collect())
            print(results)
        asyncio.run(main())
    """,
    "class bodies, super() and __class__": """
        class Base:
            kind = "base"
            def describe(self):
                return f"Base({self.kind})"
        class Child(Base):
            kind = "child"
            extra = [kind] * 2
            __private = 5
            def describe(self):
                text = super().describe()
                return text + " > Child " + str(__class__.__name__) + str(self.__private)
            @classmethod
            def make(cls):
                return cls()
        print(Child.make().describe(), Child.extra, sorted(k for k in vars(Child) if not k.startswith("__")))
    """,
    "closures and nonlocal": """
        def counter():
            count = 0
            def bump(by=1):
                nonlocal count
                count += by
                return count
            return bump
        bump = counter()
        bump()
        bump(5)
        print(bump(), [f() for f in [lambda i=i: i * 2 for i in range(3)]])
    """,
    "global statements": """
        seen = []
        def remember(value):
            global last
            last = value
            seen.append(value)
        remember(1)
        remember(2)
        print(last, seen)
    """,
    "loops with break, continue and else": """
        found = []
        for n in range(10):
            if n % 2:
                continue
            if n > 6:
                break
            found.append(n)
        else:
            found.append("no break")
        while found:
            found.pop()
            if len(found) == 2:
                break
        print(found)
    """,
    "finally order and return values": """
        log = []
        def f():
            try:
                log.append("body")
                return "from body"
            finally:
                log.append("finally")
        def g():
            for i in range(3):
                try:
                    if i == 1:
                        continue
                    log.append(i)
                finally:
                    log.append(f"f{i}")
            return log
        print(f(), g())
    """,
    "with statements and user handlers": """
        import contextlib
        @contextlib.contextmanager
        def tag(name):
            print("enter", name)
            try:
                yield name
            finally:
                print("exit", name)
        with tag("a") as a, tag("b") as b:
            print(a + b)
        try:
            {}["missing"]
        except KeyError as error:
            print("handled", repr(error))
        with contextlib.suppress(ZeroDivisionError):
            print(1 / 0)
        print("after")
    """,
    "locals, globals and del": """
        def f():
            a = 1
            b = a + 1
            del a
            return sorted(locals())
        class C:
            x = 1
            y = x + 1
            names = sorted(locals())
        print(f(), C.names)
        print(sorted(k for k in globals() if not k.startswith("__")))
    """,
    "match, walrus, assert and annotations": """
        from dataclasses import dataclass
        @dataclass
        class Point:
            x: int
            y: int = 0
        def where(p):
            match p:
                case Point(x=0, y=0):
                    result = "origin"
                case Point(x=x, y=0):
                    result = f"x-axis {x}"
                case _:
                    result = "elsewhere"
            return result
        total: int = 0
        assert (n := 3) == 3
        print([where(p) for p in (Point(0), Point(2), Point(1, 1))], n, __annotations__)
    """,
    "imports in functions": """
        def load():
            import json
            from collections import OrderedDict as OD
            return json.dumps(OD(a=1))
        print(load())
    """,
    "docstrings and future imports": '''
        """module doc"""
        from __future__ import annotations
        def f() -> Undefined:
            """function doc"""
            return 1
        class C:
            """class doc"""
        print(__doc__, f.__doc__, C.__doc__, f.__annotations__)
    ''',
    "enum class bodies": """
        import enum
        class Color(enum.Enum):
            RED = 1
            GREEN = RED + 1
        print(list(Color), Color(2))
    """,
    "threads": """
        import threading
        results = []
        def work(n):
            value = n * n
            results.append(value)
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(sorted(results))
    """,
}
