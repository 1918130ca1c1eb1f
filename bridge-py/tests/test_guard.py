"""The source guard (SPEC §9) through the bridge's own pause code: a Pause serves `execute` ops
the way the host sends them, and each test checks both the op's answer and the file system or
process table afterwards. The program's own code (outside an op) is never affected.
Run under 3.11, 3.12 and 3.13."""

import os
import sys
import tempfile
import threading
import time
import unittest

from aiython_bridge.pauses.pause import Pause


class _Server:
    def __init__(self):
        self.channel = self
        self.sent = []

    def send(self, message):
        self.sent.append(message)


def serve_ops(test, *ops, frame=None):
    """Runs each (op, args) on a pause of the caller's frame (or `frame`); returns the answers."""
    server = _Server()
    info = {"id": "main.py:1", "span": {"line": 1, "column": 0, "end_line": 1, "end_column": 1}, "statement": "x"}
    pause = Pause(server, info, frame or sys._getframe(1), {"project_root": test.root})
    try:
        for index, (op, args) in enumerate(ops):
            pause.handle({"type": "op", "pause": pause.id, "id": f"t{index}", "op": op,
                          "args": {"call_id": f"c{index}", **args}})
    finally:
        pause.close()
    return server.sent


def execute(test, code):
    [answer] = serve_ops(test, ("execute", {"code": code}), frame=sys._getframe(1))
    return answer


class SourceGuard(unittest.TestCase):
    def setUp(self):
        self.root = os.path.realpath(tempfile.mkdtemp())
        self.main = os.path.join(self.root, "main.py")
        with open(self.main, "w") as f:
            f.write("print('hello')\n")
        self.marker = os.path.join(self.root, "started")

    def tearDown(self):
        import shutil

        shutil.rmtree(self.root, ignore_errors=True)

    def assertRefused(self, answer, *fragments, error="GuardError"):
        self.assertFalse(answer["ok"], answer)
        self.assertEqual(answer["error"]["type"], error, answer)
        for fragment in fragments:
            self.assertIn(fragment, answer["error"]["message"])

    def assertUnchanged(self):
        with open(self.main) as f:
            self.assertEqual(f.read(), "print('hello')\n")

    def test_overwriting_the_script_is_refused_and_leaves_it_byte_identical(self):
        answer = execute(self, f"open({self.main!r}, 'w').write('oops')")
        self.assertRefused(answer, "writing main.py", "a source file")
        self.assertUnchanged()

    def test_a_refusal_the_code_catches_is_still_the_tool_error(self):
        answer = execute(self, f"try:\n    open({self.main!r}, 'a')\nexcept OSError:\n    pass")
        self.assertRefused(answer, "writing main.py")
        self.assertUnchanged()

    def test_truncating_deleting_renaming_and_replacing_source_are_refused(self):
        other = os.path.join(self.root, "notes.txt")
        with open(other, "w") as f:
            f.write("n")
        for code, action in [
            (f"import os; os.truncate({self.main!r}, 0)", "truncating main.py"),
            (f"import os; os.remove({self.main!r})", "deleting main.py"),
            (f"import pathlib; pathlib.Path({self.main!r}).unlink()", "deleting main.py"),
            (f"import os; os.rename({self.main!r}, {other!r})", "renaming main.py"),
            (f"import os; os.replace({other!r}, {self.main!r})", "replacing main.py"),
            (f"import os; fd = os.open({self.root!r}, os.O_RDONLY); os.unlink('main.py', dir_fd=fd)", "deleting main.py"),
            (f"import os; os.chmod({self.main!r}, 0)", "changing the mode of main.py"),
        ]:
            with self.subTest(code=code):
                self.assertRefused(execute(self, code), action)
                self.assertUnchanged()
        self.assertTrue(os.path.exists(other))

    def test_a_link_to_the_script_is_the_script(self):
        link = os.path.join(self.root, "notes.txt")
        os.symlink(self.main, link)
        self.assertRefused(execute(self, f"open({link!r}, 'w').write('x')"), "writing main.py")
        self.assertUnchanged()

    def test_a_new_code_file_anywhere_is_refused(self):
        shadow = os.path.join(self.root, "json.py")
        self.assertRefused(execute(self, f"open({shadow!r}, 'x').write('x')"), "json.py", "a source file")
        self.assertFalse(os.path.exists(shadow))
        for name in ("stub.pyi", "Build.SH", "tool.js"):
            with self.subTest(name=name):
                other = os.path.join(self.root, name)
                self.assertRefused(execute(self, f"open({other!r}, 'w').write('x')"), name, "a source file")
                self.assertFalse(os.path.exists(other))

    def test_configuration_state_and_folders_holding_source(self):
        os.makedirs(os.path.join(self.root, ".aiython"))
        pkg = os.path.join(self.root, "pkg")
        os.makedirs(pkg)
        open(os.path.join(pkg, "mod.py"), "w").close()
        cases = [
            (f"open({os.path.join(self.root, 'aiython.toml')!r}, 'w')", "aiython's configuration"),
            (f"open({os.path.join(self.root, '.aiython', 'x.sqlite')!r}, 'w')", "aiython's project state"),
            (f"import os; os.rename({pkg!r}, {pkg + '2'!r})", "a folder holding source files"),
            (f"import shutil; shutil.rmtree({pkg!r})", "deleting pkg/mod.py"),
        ]
        for code, reason in cases:
            with self.subTest(code=code):
                self.assertRefused(execute(self, code), reason)
        self.assertTrue(os.path.exists(os.path.join(pkg, "mod.py")))

    def test_a_loaded_project_module_is_protected_whatever_its_suffix(self):
        import importlib.util
        from importlib.machinery import SourceFileLoader

        path = os.path.join(self.root, "settings.conf")
        with open(path, "w") as f:
            f.write("VALUE = 1\n")
        loader = SourceFileLoader("rails_settings_module", path)
        module = importlib.util.module_from_spec(importlib.util.spec_from_loader("rails_settings_module", loader))
        loader.exec_module(module)
        sys.modules["rails_settings_module"] = module
        try:
            self.assertRefused(execute(self, f"open({path!r}, 'w')"), "settings.conf", "a project module")
        finally:
            del sys.modules["rails_settings_module"]

    def test_other_files_may_be_written(self):
        data = os.path.join(self.root, "out.txt")
        self.assertTrue(execute(self, f"with open({data!r}, 'w') as f: f.write('ok')")["ok"])
        with open(data) as f:
            self.assertEqual(f.read(), "ok")

    def test_without_write_filesystem_every_write_is_refused_but_devices(self):
        data = os.path.join(self.root, "out.txt")
        answers = serve_ops(
            self,
            ("restrict", {"denied": ["write_filesystem"]}),
            ("execute", {"code": f"open({data!r}, 'w')"}),
            ("execute", {"code": "with open('/dev/null', 'w') as f: f.write('x')"}),
            ("execute", {"code": f"import os; os.mkdir({os.path.join(self.root, 'new')!r})"}),
        )
        self.assertTrue(answers[0]["ok"])
        self.assertRefused(answers[1], "writing out.txt needs the write_filesystem permission", error="PermissionDenied")
        self.assertTrue(answers[2]["ok"], answers[2])
        self.assertRefused(answers[3], "creating the folder new", error="PermissionDenied")
        self.assertFalse(os.path.exists(data))

    def test_bytecode_is_the_import_systems_alone(self):
        """A tool may not plant bytecode python3 would run later; a module it imports loads, with
        no bytecode written and no refusal blamed on the tool (with or without write_filesystem)."""
        cache = os.path.join(self.root, "__pycache__")
        os.makedirs(cache)
        planted = os.path.join(cache, f"main.{sys.implementation.cache_tag}.pyc")
        with open(os.path.join(self.root, "fresh_module.py"), "w") as f:
            f.write("VALUE = 5\n")
        sys.path.insert(0, self.root)
        try:
            answers = serve_ops(
                self,
                ("execute", {"code": f"open({planted!r}, 'wb').write(b'evil')"}),
                ("execute", {"code": f"import py_compile; py_compile.compile({self.main!r}, cfile={planted!r})"}),
                ("execute", {"code": "import fresh_module\nassert fresh_module.VALUE == 5"}),
                ("restrict", {"denied": ["write_filesystem"]}),
                ("execute", {"code": "import importlib, fresh_module; importlib.reload(fresh_module)"}),
            )
        finally:
            sys.path.remove(self.root)
            sys.modules.pop("fresh_module", None)
        self.assertRefused(answers[0], "writing __pycache__/main.", "CPython's bytecode cache")
        self.assertFalse(answers[1]["ok"])
        self.assertEqual(answers[1]["error"]["type"], "GuardError")
        self.assertTrue(answers[2]["ok"], answers[2])
        self.assertTrue(answers[4]["ok"], answers[4])
        self.assertEqual(os.listdir(cache), [])

    def test_starting_a_process_is_refused_and_nothing_starts(self):
        touch = ["/bin/sh", "-c", f"touch {self.marker}"]
        cases = [
            (f"import subprocess; subprocess.run({touch!r})", "subprocess.Popen: /bin/sh -c touch"),
            (f"import os; os.system('touch {self.marker}')", "os.system: touch"),
            (f"import os; os.popen('touch {self.marker}')", "subprocess.Popen"),
            (f"import os; os.posix_spawn('/bin/sh', {touch!r}, dict(os.environ))", "os.posix_spawn"),
            (f"import os; os.spawnv(os.P_WAIT, '/bin/sh', {touch!r})", "os."),
            (f"import os; os.execv('/bin/sh', {touch!r})", "os.exec"),
            ("import os; pid = os.fork()\nif pid == 0: os._exit(0)", "os.fork"),
            (f"import pty; pty.spawn({touch!r})", "pty.spawn"),
        ]
        for code, shown in cases:
            with self.subTest(code=code):
                answer = execute(self, code)
                self.assertRefused(answer, "refused starting a process", shown)
        time.sleep(0.1)
        self.assertFalse(os.path.exists(self.marker), "no process ran")

    def test_the_programs_own_code_is_not_affected(self):
        self.assertRefused(execute(self, f"open({self.main!r}, 'w')"), "main.py")  # the hook is installed now
        with open(self.main, "a") as f:
            f.write("# the program's own write\n")
        os.system(f"touch {self.marker}")
        self.assertTrue(os.path.exists(self.marker))

    def test_only_the_thread_running_the_tool_is_watched(self):
        started, release, results = threading.Event(), threading.Event(), []

        def other_thread():
            started.wait(5)
            with open(self.main, "a") as f:
                f.write("# another thread\n")
            results.append("wrote")
            release.set()

        worker = threading.Thread(target=other_thread)
        worker.start()
        answer = execute(self, "started.set(); release.wait(5)")
        worker.join(5)
        self.assertTrue(answer["ok"], answer)
        self.assertEqual(results, ["wrote"])


    def test_a_program_hook_that_refuses_new_hooks_keeps_every_tool_from_running(self):
        import subprocess

        code = f"""
import sys
def refuse(event, args):
    if event == "sys.addaudithook":
        raise RuntimeError("no more hooks")
sys.addaudithook(refuse)
from tests.test_guard import _Server
from aiython_bridge.pauses.pause import Pause
server = _Server()
info = {{"id": "m:1", "span": {{"line": 1, "column": 0, "end_line": 1, "end_column": 1}}, "statement": "x"}}
pause = Pause(server, info, sys._getframe(), {{"project_root": {self.root!r}}})
pause.handle({{"type": "op", "pause": pause.id, "id": "t", "op": "execute", "args": {{"code": "open({self.main!r}, 'w')", "call_id": "c"}}}})
print(server.sent[0]["error"]["type"])
"""
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        out = subprocess.run([sys.executable, "-c", code], cwd=here, capture_output=True, text=True)
        self.assertEqual(out.stdout.strip(), "GuardUnavailable", out.stderr)
        self.assertUnchanged()


if __name__ == "__main__":
    unittest.main()
