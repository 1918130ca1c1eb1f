"""The frames of an invocation (SPEC §5.2): recovery frames following the traceback, the origin
frame, the stack in block mode, and the source windows of get_frame_code and code_context.
Each test calls the API from inside a live function through sys._getframe(), then checks what
that function's own later code sees. Run under 3.11, 3.12 and 3.13."""

import os
import sys
import tempfile
import unittest

from aiython_bridge.frameops import Invocation, ToolError, code_context

PROGRAM = '''\
import hook_module


def inner(record):
    secret = record["missing"]
    return secret


def outer():
    data = {"a": 1}
    try:
        inner(data)
    except KeyError as exc:
        return hook_module.capture(exc)


def nested_block():
    depth = 2
    return hook_module.capture(None)


def caller():
    marker = "c"
    return nested_block()
'''


class FramesAndCode(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = os.path.realpath(self.tmp.name)
        self.path = os.path.join(self.root, "prog.py")
        with open(self.path, "w") as handle:
            handle.write(PROGRAM)
        captured = {}

        class HookModule:
            origin_only = False

            @staticmethod
            def capture(exc):
                if exc is not None and HookModule.origin_only:
                    deepest = exc.__traceback__
                    while deepest.tb_next is not None:
                        deepest = deepest.tb_next
                    inv = Invocation(sys._getframe(1), origin_frame=deepest.tb_frame, line=12,
                                     project_root=self.root)
                else:
                    inv = Invocation(sys._getframe(1), traceback=exc.__traceback__ if exc else None,
                                     project_root=self.root)
                captured["inv"] = inv
                return inv.frames()

        self.namespace = {"__name__": "prog", "__file__": self.path}
        self.hook = HookModule
        sys.modules["hook_module"] = HookModule
        exec(compile(PROGRAM, self.path, "exec"), self.namespace)
        self.captured = captured

    def tearDown(self):
        sys.modules.pop("hook_module", None)
        self.captured.get("inv") and self.captured["inv"].close()
        self.tmp.cleanup()

    def test_recovery_frames_follow_the_traceback(self):
        frames = self.namespace["outer"]()["frames"]
        self.assertEqual([f["function"] for f in frames], ["outer", "inner"])
        self.assertEqual([f["file"] for f in frames], ["prog.py", "prog.py"])
        self.assertEqual(frames[1]["line"], 5)
        self.assertEqual([f["active"] for f in frames], [True, False])
        self.assertEqual([f["origin"] for f in frames], [False, True])
        names = [entry["name"] for entry in frames[1]["locals"]]
        self.assertEqual(names, ["record"])
        self.assertEqual(frames[0]["locals"][0]["name"], "data")

    def test_origin_frame_without_traceback(self):
        self.hook.origin_only = True
        frames = self.namespace["outer"]()["frames"]
        self.assertEqual([(f["function"], f["line"], f["active"], f["origin"]) for f in frames],
                         [("outer", 12, True, False), ("inner", 5, False, True)])

    def test_origin_code(self):
        self.namespace["outer"]()
        inv = self.captured["inv"]
        origin = inv.get_frame_code("origin")
        self.assertEqual((origin["start_line"], origin["end_line"], origin["line"]), (4, 6, 5))
        self.assertTrue(origin["source"].startswith("def inner(record):"))
        self.assertEqual(inv.get_frame_code("active")["start_line"], 9)
        with self.assertRaises(ToolError):
            inv.get_frame_code("elsewhere")

    def test_stack_frames_in_block_mode(self):
        frames = self.namespace["caller"]()["frames"]
        self.assertEqual([f["function"] for f in frames], ["caller", "nested_block"])
        self.assertEqual([f["active"] for f in frames], [False, True])
        with self.assertRaises(ToolError) as caught:
            self.captured["inv"].get_frame_code("origin")
        self.assertEqual(caught.exception.error_type, "ValueError")


class CodeContext(unittest.TestCase):
    def run_file(self, source: str, call: str):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        path = os.path.join(tmp.name, "ctx.py")
        with open(path, "w") as handle:
            handle.write(source)
        seen = {}

        def grab():
            frame = sys._getframe(1)
            seen["ctx"] = code_context(frame, frame.f_lineno, project_root=tmp.name)

        namespace = {"grab": grab}
        exec(compile(source, path, "exec"), namespace)
        if call:
            namespace[call]()
        return seen["ctx"]

    def test_small_function_whole(self):
        source = "x = 1\n\n@staticmethod\ndef small():\n    a = 1\n    grab()\n    return a\n\nprint\n"
        ctx = self.run_file(source, "small")
        self.assertEqual((ctx["start_line"], ctx["end_line"], ctx["line"]), (3, 7, 6))
        self.assertTrue(ctx["complete"])
        self.assertEqual(ctx["file"], "ctx.py")
        self.assertEqual(ctx["source"], "".join(source.splitlines(True)[2:7]))

    def test_large_function_windowed(self):
        body = "".join(f"    v{i} = {i}  # padding padding padding padding\n" for i in range(200))
        source = "def big():\n" + body + "    grab()\n" + body + "    return 0\n"
        ctx = self.run_file(source, "big")
        self.assertFalse(ctx["complete"])
        self.assertEqual(ctx["line"], 202)
        self.assertLessEqual(ctx["start_line"], 202)
        self.assertGreaterEqual(ctx["end_line"], 202)
        self.assertIn("grab()", ctx["source"])
        self.assertLessEqual(len(ctx["source"]), 12000)
        self.assertLess(ctx["end_line"] - ctx["start_line"], 60)

    def test_hard_cap_with_long_lines(self):
        long_line = "# " + "w" * 3000 + "\n"
        source = long_line * 30 + "grab()\n" + long_line * 30
        ctx = self.run_file(source, None)
        self.assertEqual(ctx["kind"], "module")
        self.assertLessEqual(len(ctx["source"]), 12000)
        self.assertIn("grab()", ctx["source"])

    def test_module_level_ends_with_its_top_level_statement(self):
        """SPEC §11.1: at module level the context is the lines before and the top-level statement
        holding the line, never what comes after it: appending to the script changes nothing."""
        head = "import os\nitems = [1, 2]\nfor item in items:\n    grab()\n    total = (item +\n1)\nelse:\n    pass\n"
        before = self.run_file(head, None)
        self.assertEqual((before["start_line"], before["end_line"], before["line"]), (1, 8, 4))
        self.assertEqual(before["source"], head)
        self.assertTrue(before["complete"])
        for tail in ("\n# a comment\n", "def later():\n    return 1\n", "print(items)\n" * 40):
            with self.subTest(tail=tail):
                self.assertEqual(self.run_file(head + tail, None), before)
        first = self.run_file("grab()\nafter = 1\n", None)
        self.assertEqual((first["start_line"], first["end_line"], first["source"]), (1, 1, "grab()\n"))

    def test_module_level_window_before_is_bounded(self):
        source = "".join("v%d = %d\n" % (i, i) for i in range(100)) + "grab()\n" + "w = 1\n" * 10
        ctx = self.run_file(source, None)
        self.assertEqual((ctx["end_line"], ctx["line"]), (101, 101))
        self.assertEqual(ctx["start_line"], 101 - 25)
        self.assertFalse(ctx["complete"])

    def test_source_not_available(self):
        seen = {}

        def grab():
            frame = sys._getframe(1)
            seen["ctx"] = code_context(frame, frame.f_lineno)

        exec(compile("grab()\n", "<nowhere>", "exec"), {"grab": grab})
        self.assertEqual(seen["ctx"]["source"], "")
        self.assertEqual(seen["ctx"]["note"], "source not available")

    def test_remembered_context_follows_the_source_and_the_file(self):
        """A block reached again gets an equal context of its own, made anew when linecache holds
        other lines for the file; the same code in another file gets that file's context."""
        import linecache

        seen = []

        def grab():
            frame = sys._getframe(1)
            seen.append(code_context(frame, frame.f_lineno))

        source = "def block():\n    grab()\n"
        codes = {name: compile(source, name, "exec") for name in ("/nowhere/first.py", "/nowhere/second.py")}
        self.addCleanup(lambda: [linecache.cache.pop(name, None) for name in codes])
        for name in codes:
            linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        namespaces = {name: {"grab": grab} for name in codes}
        for name, code in codes.items():
            exec(code, namespaces[name])
        first, second = (namespaces[name]["block"] for name in codes)
        first()
        first()
        seen[1]["source"] = "changed by a caller"
        first()
        self.assertEqual(seen[0], seen[2])
        self.assertIsNot(seen[0], seen[2])
        edited = "def block():\n    grab()  # edited\n"
        linecache.cache["/nowhere/first.py"] = (len(edited), None, edited.splitlines(True), "/nowhere/first.py")
        first()
        second()
        self.assertEqual(seen[3]["source"], edited)
        self.assertEqual(seen[4]["file"], "/nowhere/second.py")
        self.assertEqual(seen[4]["source"], source)


if __name__ == "__main__":
    unittest.main()
