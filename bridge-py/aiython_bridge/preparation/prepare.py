"""The code the bridge runs for a source (SPEC §4.1), the preparation cache consulted first.

`entry_code` (the entry program) and `module_code` (an imported project module) look the source
up in the run's PreparationCache (cache.py) and, on a hit, only bind the stored code to this
process's runtimes (program_code.Compiled.bind): no parse, no plan, no compile. On a miss they
build it as before, and store it:
- a source CPython parses gets the checkpoints the bridge selects (recovery/selection.py) when a
  model is configured;
- a source that does not parse is planned by the host (`plan_for(text)`: the host's Plan, or
  None), and its rewritten program gets its checkpoints by the same rule (program_code.py), so
  that a second run of an unchanged program with AI blocks never asks the host, which never
  loads the frontend or tree-sitter. A plan whose blocks include one that reads as mistyped
  Python rather than natural language (the plan's `typos`, README "A typo stays a SyntaxError")
  is refused with CPython's own SyntaxError for it, as python3 would refuse it.
None from a builder means the source is not ours to prepare: the caller compiles it as CPython
would (and gets CPython's error).

Warnings: CPython compiles a script on every run, so an entry program whose compile warns
(Compiled.warns) is compiled again on a hit for its warnings, exactly as python3 shows them. An
imported module's warnings are CPython's own loader's (import_hook.ProjectLoader), hit or miss.

Type contracts (`options["type_contracts"] == "all"`, typed_code/): the code gets the checks
of annotated assignments, parameters and returns, with or without a model (without one it gets
no checkpoints, and a source that does not parse is not planned: CPython's error). The variant
of the cache key says so; with "ai" (or the option absent) key and code are exactly as before.

The cache is the run's `options["cache"]` (`{dir, version, max_bytes}` or null: off).
"""

from __future__ import annotations

import os
import sys

from aiython_bridge import modules, protocol
from aiython_bridge.preparation import program_code
from aiython_bridge.preparation.cache import PreparationCache
from aiython_bridge.preparation.collector import without_collections
from aiython_bridge.program import source_bytes

__all__ = ["cache_for", "cached_module_code", "contracts_on", "entry_code", "indexed_module_code", "module_code", "save_indexes"]

_caches: dict[tuple, PreparationCache] = {}


def contracts_on(options: dict) -> bool:
    """Whether the run checks all annotated code (`type_contracts = "all"`)."""
    return options.get("type_contracts") == "all"


def cache_for(options: dict) -> PreparationCache | None:
    """The process's cache for these run options, or None when the cache is off."""
    settings = options.get("cache")
    if not isinstance(settings, dict) or not settings.get("dir"):
        return None
    ident = (settings["dir"], str(settings.get("version")), int(settings.get("max_bytes") or 0))
    cache = _caches.get(ident)
    if cache is None:
        cache = _caches[ident] = PreparationCache(ident[0], version=ident[1], max_bytes=ident[2])
    return cache


def entry_code(server, options: dict, data, filename: str, plan_for):
    """The entry program's code (`data` its bytes, or the text of -c), or None: not ours."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    return _code(server, options, raw, filename, entry=True, build=lambda text: _build(text, filename, options, True, plan_for),
                 text_of=lambda: data if isinstance(data, str) else _decode(data))


def module_code(server, options: dict, data: bytes, path: str, plan_for, plain=None, stat=None):
    """An imported project module's code, or None: not ours. `plain`: CPython's own compile of
    `data`, if the loader made one (program_code.compile_selected_quietly may add to it); `stat`:
    the source file's, taken before `data` was read (the cache's index records it)."""
    return _code(server, options, data, path, entry=False,
                 build=lambda text: _build(text, path, options, False, plan_for, plain), text_of=lambda: _decode(data), stat=stat)


def indexed_module_code(server, options: dict, path: str, stat):
    """An imported project module's code if the cache's index knows its source at this `stat`
    and the cache holds the entry, else None: the source is not read. A module whose compile
    warns is left to the callers that read it (its warnings are its loader's, from the text)."""
    cache = cache_for(options)
    if cache is None:
        return None
    key = cache.source_key(path, _variant(False, options), stat)
    compiled = program_code.Compiled.from_record(cache.load(key)) if key is not None else None
    if compiled is None or compiled.warns:
        return None
    if compiled.blocks:
        _blocks_ahead(server)
    return _bind(server, options, compiled, path)


def save_indexes() -> None:
    """What this process's caches learned, merged into their indexes (at the process's end)."""
    for cache in _caches.values():
        cache.save_index()


def cached_module_code(server, options: dict, data: bytes, path: str, stat=None):
    """An imported project module's code if the preparation cache holds it, else None (nothing
    built): for a loader whose own compile would be for nothing (under -B, CPython's get_code
    writes no bytecode, and its code is not the one run). A hit whose source's compile warns is
    compiled again for those warnings, as python3 -B shows them on every run."""
    cache = cache_for(options)
    if cache is None:
        return None
    compiled = program_code.Compiled.from_record(cache.load(cache.key(data, path, _variant(False, options), stat)))
    if compiled is None or (compiled.warns and not _compiles(data, path)):
        return None
    if compiled.blocks:
        _blocks_ahead(server)
    return _bind(server, options, compiled, path)


def _code(server, options, raw, filename, *, entry, build, text_of, stat=None):
    cache = cache_for(options)
    key = cache.key(raw, filename, _variant(entry, options), stat) if cache is not None else None
    compiled = program_code.Compiled.from_record(cache.load(key)) if cache is not None else None
    if compiled is not None and entry and compiled.warns:
        compiled = compiled if _compiles(text_of(), filename) else None  # CPython's own warnings, shown
    if compiled is not None and compiled.blocks:
        _blocks_ahead(server)
    if compiled is None:
        text = text_of()
        if text is None:
            return None
        compiled = build(text)
        if compiled is None:
            return None
        if cache is not None:
            cache.store(key, compiled.record())
    return _bind(server, options, compiled, filename)


def _blocks_ahead(server):
    """A source from the cache holds AI blocks, and no `plan` request said so: once per process,
    the host is told (its model client loads while the program runs up to the first block) and
    the code that serves pauses is imported here, as it is while the host plans a source."""
    channel = getattr(server, "channel", None)  # none in a test's stand-in server
    if channel is None or (_told_blocks and _told_blocks[0] == os.getpid()):
        return
    _told_blocks[:] = [os.getpid()]
    try:
        channel.send({"type": protocol.BLOCKS_AHEAD})
    except OSError:
        pass  # the host has gone: the run is ending anyway
    try:
        modules.load("aiython_bridge.pauses.pause")
    except Exception:  # noqa: BLE001 - the first block imports it again and reports what fails
        pass


_told_blocks = []


def _build(text, filename, options, entry, plan_for, plain=None):
    configured = bool(options.get("model_configured"))
    contracts = contracts_on(options)
    if configured or contracts:
        compiled = without_collections(_checkpointed_as_it_is, text, filename, entry, plain, configured, contracts)
        if compiled is not None:
            return compiled
    plan = plan_for(text)
    if plan is None:
        return None
    _raise_first_diagnostic(plan, filename, text)
    if plan.get("typos"):
        modules.load("aiython_bridge.preparation.typos").raise_first_typo(plan, filename, text)
    # The frontend had CPython's parser confirm the rewritten program; a SyntaxError compiling it
    # is one CPython raises after parsing ('return' outside function…): the program's own.
    return program_code.compile_unbound_quietly(text, filename, plan, checkpoints=configured, entry=entry, contracts=contracts)


def _checkpointed_as_it_is(text, filename, entry, plain=None, checkpoints=True, contracts=False):
    """The Compiled of a source CPython parses, with the checkpoints the bridge selects (when
    `checkpoints`) and the type-contract checks (when `contracts`); None when it does not parse. The entry program is compiled as it is first: CPython's warnings,
    shown once, as python3 shows them (a module's are its loader's)."""
    if entry and not _compiles(text, filename):
        return None
    try:
        tree, warned = program_code.parse_quietly(text, filename)
    except (SyntaxError, ValueError):
        return None
    return program_code.compile_selected_quietly(text, filename, tree, entry=entry, name=program_code.display_name(filename), warns=warned,
                                                 plain=plain, checkpoints=checkpoints, contracts=contracts)


def _bind(server, options, compiled, filename):
    blocks = None
    if compiled.blocks:
        blocks = modules.load("aiython_bridge.pauses.runtime").Runtime(server, {"blocks": compiled.blocks}, options)
    checkpoints = None
    if compiled.checkpoints and options.get("model_configured"):
        checkpoints = modules.load("aiython_bridge.recovery.sources").runtime_for(server, options)
    contracts = None
    if contracts_on(options):
        contracts = modules.load("aiython_bridge.typed_code.runtime").runtime()
    return compiled.bind(blocks=blocks, checkpoints=checkpoints, contracts=contracts, filename=filename)


def _compiles(text, filename) -> bool:
    try:
        compile(text, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _variant(entry: bool, options: dict) -> str:
    """What else a prepared source depends on: entry or module, checkpoints (a model configured)
    or not, the optimization level, the payload's FORMAT (program_code.py), and `:contracts` for `type_contracts = "all"` only,
    so that "ai" keys every source exactly as a run without the setting."""
    configured = bool(options.get("model_configured"))
    variant = "%s:%s:O%d:%d" % ("entry" if entry else "module", "checkpoints" if configured else "plain", sys.flags.optimize, program_code.FORMAT)
    return variant + ":contracts" if contracts_on(options) else variant


def _decode(data: bytes):
    try:
        return source_bytes.decode_source(data)  # importlib.util's, without importing it
    except (SyntaxError, UnicodeDecodeError):
        return None  # CPython's compile reports the bad encoding


def _raise_first_diagnostic(plan, path, text) -> None:
    diagnostics = plan.get("diagnostics") or []
    if not diagnostics:
        return
    first = diagnostics[0]
    line = int(first.get("line") or 1)
    lines = text.splitlines()
    source_line = lines[line - 1] if 0 < line <= len(lines) else None
    raise SyntaxError(str(first.get("message")), (path, line, int(first.get("column") or 0) + 1, source_line))
