"""The bytecode checkpoint path's layout (recovery/bytecode/instrument.py, 3.11 only): the hot
path runs the plain instructions and only gains exception-table entries; the fast template
writes exactly what the Assembler lays out; a layout that cannot be proven falls back to the AST
path. Skipped on other versions.
"""

import ast
import dis
import textwrap
import unittest

from aiython_bridge import pycompat
from aiython_bridge.preparation import program_code
from aiython_bridge.preparation.code_constants import CALLS, KEY_OFFSET
from aiython_bridge.recovery import selection, statement_index
from tests.bytecode_scenarios import PLACEHOLDERS, SCENARIOS, SHOW

if pycompat.BYTECODE_CHECKPOINTS:  # written for 3.11's bytecode: not importable elsewhere
    from aiython_bridge.recovery.bytecode import instrument as bytecode_instrument


def _units(written):
    """A handler's bytes, one position per unit, and its entries."""
    data, segments, entries = written
    positions = []
    for segment in segments:
        positions += [segment[1]] * segment[0] if type(segment) is tuple else segment
    return data, positions, entries


def _shown(value):
    return value.co_qualname if hasattr(value, "co_code") else value


@unittest.skipUnless(pycompat.BYTECODE_CHECKPOINTS, "the bytecode path is 3.11's")
class HotPath(unittest.TestCase):
    def test_the_statements_run_the_plain_instructions_and_only_gain_table_entries(self):
        source = SHOW + textwrap.dedent(SCENARIOS["loops"][0]) + textwrap.dedent(SCENARIOS["except and finally bodies"][0])
        plain = compile(source, "prog.py", "exec", dont_inherit=True)
        compiled = program_code._selected_in_bytecode(source, "prog.py", ast.parse(source), "prog.py", False, None)
        self.assertIsNotNone(compiled)
        pairs = [(plain, compiled.code)]
        changed = 0
        while pairs:
            old, new = pairs.pop()
            size = len(old.co_code)
            self.assertEqual(new.co_code[:size], old.co_code, old.co_name)
            self.assertEqual(list(new.co_positions())[:size // 2], list(old.co_positions()), old.co_name)
            before = [(i.offset, i.opname, i.arg, _shown(i.argval)) for i in dis.get_instructions(old)]
            after = [(i.offset, i.opname, i.arg, _shown(i.argval)) for i in dis.get_instructions(new) if i.offset < size]
            self.assertEqual(after, before, old.co_name)
            changed += len(new.co_code) > size
            pairs += [(a, b) for a, b in zip(old.co_consts, new.co_consts) if hasattr(a, "co_code")]
        self.assertGreaterEqual(changed, 2)

    def test_the_template_writes_what_the_assembler_lays_out(self):
        """Every handler of a few standard library modules and of the scenarios, both ways."""
        import argparse
        import configparser
        import difflib
        import json.decoder
        import textwrap as textwrap_module

        compared = []
        original = bytecode_instrument.handler_code

        def both(point, table, template, placeholders, base, assembler=False):
            fast = original(point, table, template, placeholders, base)
            slow = original(point, table, template, placeholders, base, assembler=True)
            self.assertEqual(_units(fast), _units(slow))
            compared.append(template.usable and template.write(point, table.const(point.index + KEY_OFFSET), base) is not None)
            return fast

        sources = [SHOW + textwrap.dedent(body) for body, _, _ in SCENARIOS.values()]
        for module in (argparse, configparser, difflib, json.decoder, textwrap_module):
            with open(module.__file__, encoding="utf-8") as f:
                sources.append(f.read())
        bytecode_instrument.handler_code = both
        try:
            for source in sources:
                tree = ast.parse(source)
                selected = selection.selected_sites(statement_index.index_statements(tree), source, entry=False)
                bytecode_instrument.instrument_code(compile(source, "m.py", "exec"), selected, PLACEHOLDERS)
        finally:
            bytecode_instrument.handler_code = original
        self.assertGreater(sum(compared), 300, (sum(compared), len(compared)))  # written by the template

    def test_an_unprovable_layout_falls_back_to_the_ast_path(self):
        refused = [
            "def f():\n    assert False, 'never here'\n",  # raises at its end: no instruction to go back to
            "def f(y):\n    assert y, 'never here'\n",  # raises at its end too: refused for now
        ]
        for source in refused:
            tree = ast.parse(source)
            selected = selection.selected_sites(statement_index.index_statements(tree), source, entry=False)
            self.assertEqual(len(selected), 1)
            self.assertIsNone(bytecode_instrument.instrument_code(compile(source, "m.py", "exec"), selected, PLACEHOLDERS),
                              source)
        source = refused[0]
        compiled = program_code.compile_selected_quietly(source, "m.py", ast.parse(source), entry=False, name="m.py")
        self.assertEqual(len(compiled.checkpoints), 1)  # the AST path's handler
        consts = {n for c in compiled.code.co_consts if hasattr(c, "co_code") for n in c.co_consts}
        self.assertIn(CALLS["raising"], consts)


if __name__ == "__main__":
    unittest.main()
