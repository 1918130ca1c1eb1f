"""How spawned.py's audit hook reads a subprocess argv (processes/argv.py): where the program
starts in `python [OPTIONS] PROGRAM`, which file `-m MODULE` runs (only when certain), and which
shell commands are one simple command of plain words."""

import os
import tempfile
import unittest

from aiython_bridge.processes.argv import module_file, program_start, shell_line, shell_words


class ProgramStart(unittest.TestCase):
    def test_file_and_module(self):
        self.assertEqual(program_start(["py", "-u", "-X", "utf8", "a.py", "x"]), (4, "file", False))
        self.assertEqual(program_start(["py", "-u", "-m", "pkg.mod", "x"]), (2, "module", False))
        self.assertEqual(program_start(["py", "-mmod"]), (1, "module", False))
        self.assertEqual(program_start(["py", "-P", "-m", "mod"]), (2, "module", True))
        self.assertEqual(program_start(["py", "-Im", "mod"]), None)  # -m joined to another option

    def test_no_program(self):
        for argv in (["py", "-c", "pass"], ["py", "-m"], ["py", "-"], ["py", "--version"], ["py"]):
            self.assertIsNone(program_start(argv), argv)


class ModuleFile(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        for name, text in {"pkg/__init__.py": "", "pkg/mod.py": "", "pkg/app/__init__.py": "",
                           "pkg/app/__main__.py": "", "ns/mod.py": "", "top.py": ""}.items():
            path = os.path.join(self.dir, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").close()

    def test_certain_files(self):
        self.assertEqual(module_file("pkg.mod", self.dir, {}, False), os.path.join(self.dir, "pkg", "mod.py"))
        self.assertEqual(module_file("pkg.app", self.dir, {}, False), os.path.join(self.dir, "pkg", "app", "__main__.py"))
        self.assertEqual(module_file("top", self.dir, {}, False), os.path.join(self.dir, "top.py"))

    def test_uncertain_or_absent(self):
        self.assertIsNone(module_file("ns.mod", self.dir, {}, False))  # a namespace package
        self.assertIsNone(module_file("top", self.dir, {}, True))  # -P / -I
        self.assertIsNone(module_file("top", self.dir, {"PYTHONSAFEPATH": "1"}, False))
        self.assertIsNone(module_file("missing", self.dir, {}, False))
        self.assertIsNone(module_file("sys", self.dir, {}, False))


class ShellWords(unittest.TestCase):
    def test_simple_commands(self):
        self.assertEqual(shell_words("python3 -u 'my file.py' \"a b\" c"), ["python3", "-u", "my file.py", "a b", "c"])
        self.assertEqual(shell_line(["/usr/bin/python3", "my file.py", "it's"]), "/usr/bin/python3 'my file.py' 'it'\"'\"'s'")

    def test_anything_else_is_left_alone(self):
        for command in ("python3 a.py; echo", "python3 a.py | cat", "python3 $F", "A=1 python3 a.py", "python3 a.py > out",
                        "python3 'a.py", "python3 *.py", "cd x && python3 a.py", ""):
            self.assertIsNone(shell_words(command), command)


if __name__ == "__main__":
    unittest.main()
