"""syntax_tree (what preparation uses of `ast`, without importing ast.py) behaves as ast does:
the same trees from parse, the same nodes in the same order from walk and iter_child_nodes,
the same positions from copy_location; and parsing with it leaves ast unimported."""

import ast
import os
import subprocess
import sys
import unittest

from aiython_bridge.preparation import syntax_tree

BRIDGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = [ast.__file__, os.path.join(os.path.dirname(ast.__file__), "asyncio", "tasks.py"),
           os.path.join(os.path.dirname(ast.__file__), "json", "decoder.py")]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class SameAsAst(unittest.TestCase):
    def test_the_names_of_ast_star_importing_ast(self):
        star = {}
        exec("from _ast import *", star)
        del star["__builtins__"]
        own = {"copy_location", "iter_child_nodes", "iter_fields", "parse", "unparse", "walk"}
        self.assertEqual(sorted(set(syntax_tree.__all__) - own), sorted(star))
        for name, value in star.items():
            self.assertIs(getattr(syntax_tree, name), value, name)

    def test_parse_gives_the_tree_ast_parse_gives(self):
        for path in SAMPLES:
            text = read(path)
            self.assertEqual(ast.dump(syntax_tree.parse(text, path), include_attributes=True),
                             ast.dump(ast.parse(text, path), include_attributes=True), path)
        tree = syntax_tree.parse("x = 1", "<expr>", "single")
        self.assertIsInstance(tree, ast.Interactive)
        with self.assertRaises(SyntaxError):
            syntax_tree.parse("x = = 1")

    def test_walk_and_children_in_ast_order(self):
        for path in SAMPLES:
            tree = ast.parse(read(path), path)
            self.assertEqual([id(node) for node in syntax_tree.walk(tree)], [id(node) for node in ast.walk(tree)], path)
            for node in list(ast.walk(tree))[:2000]:
                self.assertEqual(list(syntax_tree.iter_child_nodes(node)), list(ast.iter_child_nodes(node)))
                self.assertEqual(list(syntax_tree.iter_fields(node)), list(ast.iter_fields(node)))

    def test_copy_location_as_ast_copies_it(self):
        old = ast.parse("value = f(x)\n").body[0].value
        for source in (old, ast.Name(id="y", ctx=ast.Load(), lineno=3, col_offset=1)):
            ours, theirs = ast.Constant(value=1), ast.Constant(value=1)
            self.assertIs(syntax_tree.copy_location(ours, source), ours)
            ast.copy_location(theirs, source)
            self.assertEqual(ast.dump(ours, include_attributes=True), ast.dump(theirs, include_attributes=True))
        # A node without positions (a context) takes none.
        self.assertEqual(ast.dump(syntax_tree.copy_location(ast.Load(), old)), "Load()")

    def test_unparse_is_ast_unparse(self):
        annotation = ast.parse("x: dict[str, list[int]] = {}").body[0].annotation
        self.assertEqual(syntax_tree.unparse(annotation), "dict[str, list[int]]")

    def test_preparing_a_source_without_annotations_imports_no_ast(self):
        script = ("import sys\nfrom aiython_bridge.preparation import prepare\n"
                  "class Server:\n    pid = 0\n    pause_router = None\n"
                  "code = prepare.entry_code(Server(), {'model_configured': True}, 'total = sum([1, 2])\\nprint(total)\\n', '/nowhere/prog.py', None)\n"
                  "exec(code, {'__name__': '__main__'})\nprint('ast' in sys.modules)\n")
        done = subprocess.run([sys.executable, "-c", script], cwd=BRIDGE, capture_output=True, text=True)
        self.assertEqual((done.stdout, done.stderr), ("3\nFalse\n", ""))


if __name__ == "__main__":
    unittest.main()
