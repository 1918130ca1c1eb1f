"""Checkpoints at the bytecode level (SPEC §4.2), 3.11 only: the handlers of
recovery/instrument.py's AST shape added to an imported module's plain code object where the
layout can be proven, so the module is not compiled a second time
(pycompat.BYTECODE_CHECKPOINTS).

- instrument.py: the entry point, `instrument_code`, and the rules it proves;
- code.py: reading and writing 3.11 code objects (instructions, exception and location tables);
- depths.py: the stack depth before each instruction;
- statements.py: each selected statement's instructions, found and proven;
- handler.py with assembly.py: one checkpoint's handler laid out; template.py writes it fast from
  a shape recorded once (shape.py).

A file name in these files' comments is a sibling here; recovery/instrument.py is the AST path.
Nothing is imported here: preparation/program_code.py loads instrument.py when it needs it.
"""
