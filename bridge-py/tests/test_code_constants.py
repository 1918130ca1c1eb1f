"""Binding placeholder constants (code_constants.py): binding through the slots that `slots` found
gives exactly the code `bind` gives, with every placeholder or only some bound; slots that are
not the code's are refused and Compiled.bind then reads every constant; a cache hit binds
through the stored slots.
"""

import ast
import marshal
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

from aiython_bridge.preparation import code_constants, program_code
from aiython_bridge.preparation import prepare
from aiython_bridge.recovery import instrument

SOURCE = '''
import os
LABEL = "\\x00aiython:not-a-placeholder"
def top(n):
    total = 0
    for i in range(n):
        total += i
    squares = [j * j for j in range(n)]
    return total + sum(squares)
class Box:
    size = 3
    def grow(self, by):
        self.size += by
        inner = lambda k: k + by
        return inner(self.size)
    class Nested:
        def deep(self):
            value = os.sep
            return value
async def later():
    result = await thing()
    return result
def plain():
    pass
'''
_CODE = type(compile("", "", "exec"))


def instrumented(source=SOURCE):
    tree = ast.parse(source, "mod.py")
    return program_code.compile_selected_quietly(source, "mod.py", tree, entry=False, name="mod.py")


def layout(code):
    """Everything about a code object tree: its bytecode and names, and each constant (a bound
    object by its type, or by identity when it is a bare object())."""
    def const(c):
        if type(c) is _CODE:
            return layout(c)
        if type(c) in (str, int, float, bytes, tuple, frozenset, bool, type(None), complex, type(...)):
            return (type(c), c)
        return (type(c), id(c) if type(c) is object else None)
    return (marshal.dumps(code.replace(co_consts=())), tuple(const(c) for c in code.co_consts))


class Slots(unittest.TestCase):
    def setUp(self):
        self.compiled = instrumented()
        self.runtime = object()
        self.calls = {placeholder: self.runtime for placeholder in instrument.CALLS.values()}
        self.full = {**self.calls, instrument.EXCEPTION: Exception, instrument.RECURSION_ERROR: RecursionError}

    def test_slots_name_every_placeholder_of_every_code_object(self):
        where = code_constants.slots(self.compiled.code)
        self.assertIsNotNone(where)
        self.assertEqual(marshal.loads(marshal.dumps(where)), where, "marshal keeps them as they are")
        own, nested, co_code, _ = where
        self.assertEqual(co_code, self.compiled.code.co_code, "the bytecode binding hands to code.replace")
        self.assertGreaterEqual(len(nested), 3, "top, Box, later hold checkpoints")
        self.assertEqual([self.compiled.code.co_consts[i] for i, _ in own], [name for _, name in own])
        for index, inner in nested:
            self.assertIs(type(self.compiled.code.co_consts[index]), _CODE)
        self.assertIsNone(code_constants.slots(compile("x = 1\n", "m.py", "exec")))

    def test_binding_through_slots_is_binding_every_constant(self):
        where = code_constants.slots(self.compiled.code)
        for mapping in [self.full, self.calls, {"\x00aiython:unknown": 1}]:
            with self.subTest(mapping=sorted(mapping)):
                by_slots = code_constants.bind_slots(self.compiled.code, where, mapping)
                by_reading = code_constants.bind(self.compiled.code, mapping)
                self.assertEqual(layout(by_slots), layout(by_reading))
        self.assertIs(code_constants.bind_slots(self.compiled.code, where, {"\x00aiython:unknown": 1}), self.compiled.code)

    def test_a_program_string_like_a_placeholder_is_left_alone(self):
        bound = code_constants.bind_slots(self.compiled.code, code_constants.slots(self.compiled.code), self.full)
        self.assertIn("\x00aiython:not-a-placeholder", bound.co_consts)

    def test_slots_of_another_code_are_refused(self):
        other = code_constants.slots(instrumented("def f():\n    x = 1\n    return x\n").code)
        with self.assertRaises((ValueError, IndexError)):
            code_constants.bind_slots(self.compiled.code, other, self.full)

    def test_compiled_bind_with_slots_that_do_not_fit_reads_every_constant(self):
        wrong = instrumented("def f():\n    x = 1\n    return x\n").placeholder_slots()
        damaged = program_code.Compiled(self.compiled.code, self.compiled.checkpoints, slots=wrong)
        runtime_calls = []
        checkpoints = mock.Mock()
        handlers = mock.Mock(exceptions=Exception)
        checkpoints.for_file.side_effect = lambda *args: runtime_calls.append(args) or handlers
        code = damaged.bind(checkpoints=checkpoints, filename="mod.py")
        from aiython_bridge.recovery.calls import CALL_OBJECTS

        expected = {**CALL_OBJECTS, instrument.EXCEPTION: Exception, instrument.RECURSION_ERROR: RecursionError}
        self.assertEqual(layout(code), layout(code_constants.bind(self.compiled.code, expected)))
        self.assertEqual(len(runtime_calls), 1)


class Hit(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="aiython-constants-")
        self.addCleanup(shutil.rmtree, self.root, True)
        patcher = mock.patch.object(sys, "dont_write_bytecode", False)
        patcher.start()
        self.addCleanup(patcher.stop)
        prepare._caches.clear()

    def test_a_hit_binds_through_the_stored_slots(self):
        class Server:
            pid, exiting, pause_router = os.getpid(), False, None

        options = {"model_configured": True, "project_root": self.root, "context_values": True,
                   "cache": {"dir": os.path.join(self.root, "cache"), "version": "test", "max_bytes": 1 << 20}}
        path = os.path.join(self.root, "mod.py")
        missed = prepare.module_code(Server(), options, SOURCE.encode(), path, lambda text: None)
        with mock.patch.object(code_constants, "bind", side_effect=AssertionError("every constant read on a hit")):
            hit = prepare.module_code(Server(), options, SOURCE.encode(), path, lambda text: None)
        self.assertEqual(layout(hit), layout(missed))


if __name__ == "__main__":
    unittest.main()
