"""A source and its plan → the code object the bridge runs (SPEC §4.1), for the entry program
and for imported project modules alike.

The plan's rewritten source (or the source itself) is parsed once; its AI block calls
(`NAME.block(N)`, `(await NAME.ablock(N))`, NAME the plan's runtimeName) are pointed at a
placeholder constant, its checkpoints are instrumented (recovery/instrument.py), the tree is
compiled, and code_constants.bind puts the file's block runtime (runtime.Runtime), its
checkpoint object and the handlers' exception classes in place of the placeholders. Nothing is
bound in builtins or in the module's globals.
"""

import ast
import warnings

from aiython_bridge import code_constants, modules

BLOCKS = "\x00aiython:blocks:7f3c2a"


def compile_plan(text, filename, plan, *, blocks=None, checkpoints=None, entry, tree=None, mode="exec", flags=0):
    """Code for `text` (the plan's rewritten source or the original; `tree` its AST if parsed
    already) with the plan's blocks calling `blocks` (a runtime.Runtime) and its checkpoints
    answered by `checkpoints` (the process's recovery CheckpointRuntime), if given. The console
    compiles in mode "single" (expression values echoed) with its `from __future__` flags."""
    if tree is None:
        tree = ast.parse(text, filename)
    mapping = {}
    if blocks is not None and plan.get("blocks"):
        _point_blocks_at_placeholder(tree, plan["runtimeName"])
        mapping[BLOCKS] = blocks
    if checkpoints is not None and plan.get("checkpoints"):
        selection = modules.load("aiython_bridge.recovery.selection")
        instrument = modules.load("aiython_bridge.recovery.instrument")
        ranges = selection.protected_ranges(tree)  # before the transform adds its own try statements
        result = instrument.instrument(tree, plan["checkpoints"], source=text, entry=entry)
        mapping.update({
            instrument.RUNTIME: checkpoints.for_file(filename, result.checkpoints, ranges),
            instrument.EXCEPTION: Exception,
            instrument.RECURSION_ERROR: RecursionError,
        })
    if mode == "single":
        tree = ast.Interactive(body=tree.body)
    code = compile(tree, filename, mode, flags=flags, dont_inherit=True)
    return code_constants.bind(code, mapping) if mapping else code


def parse_quietly(text, filename):
    """The AST, without the SyntaxWarnings CPython's own compile of the source has already
    given (or, for a module with valid bytecode, never gives): warnings are CPython's to emit,
    exactly once. (catch_warnings swaps the process's filters for the duration.)"""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text, filename)


def compile_plan_quietly(*args, **kwargs):
    """compile_plan without the compiler's warnings (the retry copies would repeat them)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile_plan(*args, **kwargs)


def _point_blocks_at_placeholder(tree, runtime_name):
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == runtime_name:
            node.value = ast.copy_location(ast.Constant(value=BLOCKS), node.value)
