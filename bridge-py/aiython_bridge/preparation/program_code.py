"""A source and its plan → the code object the bridge runs (SPEC §4.1), for the entry program
and for imported project modules alike.

The plan's rewritten source (or the source itself) is parsed once; its AI block calls
(`NAME.block(N)`, `(await NAME.ablock(N))()`, NAME the plan's runtimeName) are pointed at a
placeholder constant, its checkpoints are selected and instrumented (recovery/instrument.py), and
the tree is compiled: a Compiled, which depends only on the source, the plan and the interpreter,
so the preparation cache can keep it (prepare.py, cache.py). Compiled.bind then puts the file's
block runtime (runtime.Runtime), its checkpoint object and the handlers' exception classes in place of the
placeholders (code_constants.bind). Nothing is bound in builtins or in the module's globals.
"""

import marshal
import os

from aiython_bridge import modules, pycompat
from aiython_bridge.preparation import code_constants
from aiython_bridge.preparation.compiler_warnings import held_back

__all__ = [
    "BLOCKS", "FORMAT", "Compiled", "REWRITTEN", "compile_plan", "compile_selected_quietly", "compile_unbound",
    "compile_unbound_quietly", "display_name", "parse_quietly",
]

BLOCKS = "\x00aiython:blocks:7f3c2a"
FORMAT = 7  # the shape of Compiled.record(), the cache's payload, and of the handlers' code in it; a new shape needs a new number (or cache.FORMAT)
# file name -> the rewritten source it runs (files with AI blocks): their original text does not
# parse, and frameops/typed_names.py reads annotations from the text that does.
REWRITTEN = {}
_CODE = type((lambda: None).__code__)


class Compiled:
    """A source's code before binding, and what binding needs: the checkpoints it calls (in
    index order, as instrument.py resolved them), the user try/with body ranges of the file
    (for callers.py, read before instrumenting), the plan's blocks; and whether CPython's own
    compile of the source warns (so that a cached entry program still shows its warnings); and
    the rewritten source of a file with AI blocks (None otherwise), which binding registers in
    REWRITTEN; and where the code holds its placeholders (code_constants.slots; False: not
    known yet). Every field is something marshal can write."""

    __slots__ = ("code", "checkpoints", "ranges", "blocks", "warns", "rewritten", "slots")

    def __init__(self, code, checkpoints=(), ranges=(), blocks=(), warns=False, rewritten=None, slots=False):
        # checkpoints: a list of dicts, or packed_checkpoints' bytes (from the cache; b"": none)
        self.code, self.ranges = code, list(ranges)
        self.checkpoints = checkpoints if type(checkpoints) is bytes else list(checkpoints)
        self.blocks, self.warns, self.rewritten = list(blocks), bool(warns), rewritten
        self.slots = slots

    def placeholder_slots(self):
        """code_constants.slots of the code, found once (the cache keeps them with the code)."""
        if self.slots is False:
            self.slots = code_constants.slots(self.code)
        return self.slots

    def packed_checkpoints(self) -> bytes:
        """The checkpoints marshal'd (b"" when none), as the cache keeps them: the runtime reads
        them only when one of the file's statements fails (recovery/table.py)."""
        if type(self.checkpoints) is bytes:
            return self.checkpoints
        return marshal.dumps(self.checkpoints) if self.checkpoints else b""

    def record(self):
        """What the preparation cache stores of this Compiled (prepare.py): a tuple marshal writes."""
        return (self.code, self.packed_checkpoints(), self.ranges, self.blocks, self.warns, self.rewritten, self.placeholder_slots())

    @classmethod
    def from_record(cls, record):
        """A Compiled from a payload, or None unless it has exactly the shape record() gives."""
        if type(record) is not tuple or len(record) != 7:
            return None
        code, checkpoints, ranges, blocks, warns, rewritten, slots = record
        if type(code) is not _CODE or type(checkpoints) is not bytes or type(ranges) is not list:
            return None
        if type(blocks) is not list or type(warns) is not bool or not (rewritten is None or type(rewritten) is str):
            return None
        if not all(type(item) is dict for item in blocks) or not (slots is None or type(slots) is tuple):
            return None
        return cls(code, checkpoints, ranges, blocks, warns, rewritten, slots)

    def bind(self, *, blocks=None, checkpoints=None, contracts=None, filename):
        """The runnable code: `blocks` (a runtime.Runtime), `checkpoints` (the process's
        recovery CheckpointRuntime) and `contracts` (typed_code's TypeContracts, for code
        compiled with contracts) put in place of their placeholders, if given."""
        if self.rewritten is not None:
            REWRITTEN[filename] = self.rewritten
        mapping = {}
        if blocks is not None and self.blocks:
            mapping[BLOCKS] = blocks
        if checkpoints is not None and self.checkpoints:
            handlers = checkpoints.for_file(filename, self.checkpoints, self.ranges)
            mapping.update(modules.load("aiython_bridge.recovery.calls").CALL_OBJECTS)
            mapping[code_constants.EXCEPTION] = handlers.exceptions  # `(Exception,)`, holding the file's handlers
            mapping[code_constants.RECURSION_ERROR] = RecursionError
        if contracts is not None:
            mapping[code_constants.CONTRACTS] = contracts
        if not mapping:
            return self.code
        if self.slots is not False:
            try:
                return code_constants.bind_slots(self.code, self.slots, mapping)
            except (ValueError, TypeError, IndexError):
                pass  # slots that are not this code's (a damaged cache entry): every constant read
        return code_constants.bind(self.code, mapping)


def compile_unbound(source, filename, plan, *, checkpoints, entry, tree=None, warns=False, mode="exec", flags=0,
                    contracts=False):
    """The Compiled of `source` as `plan` runs it: its rewritten program when it has one (`tree`
    the AST of the text compiled, if parsed already), the plan's blocks pointed at their
    placeholder, and, when `checkpoints` is true (recovery on), the checkpoints of SPEC §4.2
    selected on that program and instrumented, their positions and texts the user's source's
    (recovery/rendering.py). `contracts`: the type-contract checks of `type_contracts = "all"`
    added after them (typed_code/sites.py). The console compiles in mode "single" (expression
    values echoed) with its `from __future__` flags."""
    text = source if plan.get("rewritten") is None else plan["rewritten"]
    if tree is None:
        tree = pycompat.parse_ast(text, filename)
    blocks = plan.get("blocks") or []
    if blocks:
        _point_blocks_at_placeholder(tree, plan["runtimeName"])
    table, ranges = [], []
    if checkpoints:
        rendering = modules.load("aiython_bridge.recovery.rendering").Rendering(text, source, plan) if blocks else None
        instrument = modules.load("aiython_bridge.recovery.instrument")
        result, ranges = instrument.instrument_selected(tree, source=text, entry=entry, name=display_name(filename),
                                                        rendering=rendering)
        table = result.checkpoints
    if contracts:
        modules.load("aiython_bridge.typed_code.sites").add_contracts(tree)
    if mode == "single":
        tree = modules.load("aiython_bridge.preparation.syntax_tree").Interactive(body=tree.body)
    code = compile(tree, filename, mode, flags=flags, dont_inherit=True)
    if table:
        code = modules.load("aiython_bridge.recovery.handler_lines").placed(code)
    return Compiled(code, table, ranges, blocks, warns, text if plan.get("rewritten") else None)


def compile_plan(source, filename, plan, *, blocks=None, checkpoints=None, entry, tree=None, mode="exec", flags=0):
    """compile_unbound and bind in one step: `blocks` and `checkpoints` as Compiled.bind takes them."""
    compiled = compile_unbound(source, filename, plan, checkpoints=checkpoints is not None, entry=entry, tree=tree,
                               mode=mode, flags=flags)
    return compiled.bind(blocks=blocks, checkpoints=checkpoints, filename=filename)


def parse_quietly(text, filename):
    """The AST and whether parsing warned, without showing the SyntaxWarnings CPython's own
    compile of the source has already given (or, for a module with valid bytecode, never gives):
    warnings are CPython's to emit, exactly once (compiler_warnings.py)."""
    with held_back() as caught:
        tree = pycompat.parse_ast(text, filename)
    return tree, bool(caught)


def compile_unbound_quietly(*args, **kwargs):
    """compile_unbound without showing the compiler's warnings (the retry copies would repeat
    them); a warning marks the result `warns`."""
    with held_back() as caught:
        compiled = compile_unbound(*args, **kwargs)
    compiled.warns = compiled.warns or bool(caught)
    return compiled


def compile_selected_quietly(text, filename, tree, *, entry, name, warns=False, plain=None, checkpoints=True, contracts=False):
    """compile_unbound_quietly of a source CPython parses (`tree` its AST) with the checkpoints
    the bridge selects itself by SPEC §4.2's rule, selected and instrumented in one walk
    (recovery/instrument.instrument_selected). A source with none is compiled from its text,
    which gives the same code faster than from the tree. An imported module on 3.11 gets its
    handlers added to its plain code instead (`plain`: CPython's own compile of the same text,
    if the loader made one), where recovery/bytecode/instrument.py can prove the layout.
    `checkpoints` false: none (no model configured); `contracts`: the type-contract checks of
    `type_contracts = "all"` added after the checkpoints, on the tree (typed_code/sites.py)."""
    if checkpoints and not contracts and not entry and pycompat.BYTECODE_CHECKPOINTS:
        compiled = _selected_in_bytecode(text, filename, tree, name, warns, plain)
        if compiled is not None:
            return compiled
    table, ranges = [], []
    with held_back() as caught:
        if checkpoints:
            instrument = modules.load("aiython_bridge.recovery.instrument")
            result, ranges = instrument.instrument_selected(tree, source=text, entry=entry, name=name)
            table = result.checkpoints
        checked = contracts and modules.load("aiython_bridge.typed_code.sites").add_contracts(tree)
        if table or checked:
            code = compile(tree, filename, "exec", dont_inherit=True)
            if table:
                code = modules.load("aiython_bridge.recovery.handler_lines").placed(code)
        else:
            code, ranges = compile(text, filename, "exec", dont_inherit=True), []
    return Compiled(code, table, ranges, (), warns or bool(caught), None)


def _selected_in_bytecode(text, filename, tree, name, warns, plain):
    """The Compiled of an imported module with the bridge's own checkpoints added to its plain
    code object (recovery/bytecode/instrument.py), or None: the AST path instruments it."""
    selection = modules.load("aiython_bridge.recovery.selection")
    statement_index = modules.load("aiython_bridge.recovery.statement_index")
    ranges: list = []
    selected = selection.selected_sites(statement_index.index_statements(tree, ranges), text, entry=False, name=name)
    if plain is None:
        with held_back() as caught:
            plain = compile(text, filename, "exec", dont_inherit=True)
        warns = warns or bool(caught)
    if not selected:
        return Compiled(plain, (), (), (), warns, None)
    bytecode = modules.load("aiython_bridge.recovery.bytecode.instrument")
    placeholders = (code_constants.CALLS, code_constants.EXCEPTION, code_constants.RECURSION_ERROR)
    code = bytecode.instrument_code(plain, selected, placeholders)
    if code is None:
        return None
    infos, Return = [], modules.load("aiython_bridge.preparation.syntax_tree").Return
    for site, info in selected:
        info["is_return"] = isinstance(site.node, Return)
        infos.append(info)
    return Compiled(code, infos, selection.merged_ranges(ranges), (), warns, None)


def display_name(filename: str) -> str:
    """The name checkpoint ids use: a file's base name, or `<string>` / `<stdin>` (as the plan's displayName)."""
    return filename if filename.startswith("<") else os.path.basename(filename)


def _point_blocks_at_placeholder(tree, runtime_name):
    ast = modules.load("aiython_bridge.preparation.syntax_tree")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == runtime_name:
            node.value = ast.copy_location(ast.Constant(value=BLOCKS), node.value)
