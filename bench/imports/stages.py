# bench/imports: where a project module's preparation time goes, stage by stage, inside one
# process (CPU time, best of ROUNDS; the machine's noise hurts these far less than the paired runs
# of imports.ts). For every .py file under FOLDER (the generated project of imports.ts, a copy of
# pygments…), as a project module with a model configured:
#   cold  python3's own compile of the text (what it pays anyway), ast.parse, checkpoint selection
#         and instrumentation, compile of the instrumented tree, its handlers' first lines placed
#         (recovery/handler_lines.py), the cache store; gc paused, as
#         preparation/prepare.py pauses it; on 3.11 also the bytecode path's two stages (selection
#         alone, and the handlers added to python3's own code object: recovery/bytecode/instrument.py),
#         which replace "select+instrument" and "compile(instrumented tree)" where the layout is proven;
#   warm  the hit path of preparation/prepare.module_code by parts: the key, reading and verifying
#         the entry, marshal.loads, binding (runtime table, code_constants.bind_slots), and the whole.
#   python3 bench/imports/stages.py FOLDER [ROUNDS]
import ast
import gc
import glob
import marshal
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bridge-py"))
from aiython_bridge import pycompat  # noqa: E402
from aiython_bridge.preparation import cache as cache_file, code_constants, prepare  # noqa: E402
from aiython_bridge.recovery import handler_lines, instrument, selection, sources, statement_index  # noqa: E402

bytecode_instrument = None
if pycompat.BYTECODE_CHECKPOINTS:
    from aiython_bridge.recovery.bytecode import instrument as bytecode_instrument  # noqa: E402
PLACEHOLDERS = (instrument.RUNTIME, instrument.EXCEPTION, instrument.RECURSION_ERROR)

del sys.path[0]


class Server:
    pid = os.getpid()
    exiting = False
    pause_router = None


def timed(totals, stage, work, *args, **kwargs):
    start = time.process_time()
    result = work(*args, **kwargs)
    totals[stage] = totals.get(stage, 0.0) + time.process_time() - start
    return result


def cold(totals, sources_, folder):
    cache = cache_file.PreparationCache(folder, version="stages", max_bytes=1 << 30)
    gc.disable()
    try:
        for path, data in sources_:
            text = data.decode("utf-8")
            plain = timed(totals, "python3's compile(text)", compile, data, path, "exec", dont_inherit=True)
            tree = timed(totals, "ast.parse", ast.parse, text, path)
            if bytecode_instrument is not None:  # 3.11: the path preparation takes, on python3's own code object
                sites = timed(totals, "select (bytecode path)", selected, tree, text, os.path.basename(path))
                timed(totals, "instrument plain code (bytecode)", bytecode_instrument.instrument_code, plain, sites,
                      PLACEHOLDERS)
            result, ranges = timed(totals, "select+instrument", instrument.instrument_selected, tree, source=text,
                                   entry=False, name=os.path.basename(path))
            code = timed(totals, "compile(instrumented tree)", compile, tree, path, "exec", dont_inherit=True)
            code = timed(totals, "handlers' first lines (placed)", handler_lines.placed, code)
            record = prepare.program_code.Compiled(code, result.checkpoints, ranges).record()
            timed(totals, "store (marshal.dumps, write)", cache.store, cache.key(data, path, "stages"), record)
    finally:
        gc.enable()


def selected(tree, text, name):
    return selection.selected_sites(statement_index.index_statements(tree, []), text, entry=False, name=name)


def warm(totals, sources_, options):
    server, cache = Server(), prepare.cache_for(options)
    variant = prepare._variant(False, True)
    for path, data in sources_:
        key = timed(totals, "key", cache.key, data, path, variant)
        with open(cache.path(key), "rb") as f:
            blob = timed(totals, "read entry", f.read)
        payload = timed(totals, "verify checksum", cache_file._verified, blob, key)
        compiled = prepare.program_code.Compiled.from_record(timed(totals, "marshal.loads", marshal.loads, payload))
        runtime = sources.runtime_for(server, options)
        file_checkpoints = timed(totals, "runtime table (for_file)", runtime.for_file, path, compiled.checkpoints,
                                 compiled.ranges)
        mapping = {instrument.RUNTIME: file_checkpoints, instrument.EXCEPTION: Exception,
                   instrument.RECURSION_ERROR: RecursionError}
        timed(totals, "code_constants.bind_slots", code_constants.bind_slots, compiled.code, compiled.slots, mapping)
        timed(totals, "whole module_code (hit)", prepare.module_code, server, options, data, path, None)


def main():
    folder, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5
    sys.dont_write_bytecode = False  # the cache is written as on a run without -B (whatever the environment says)
    files = sorted(glob.glob(os.path.join(folder, "**", "*.py"), recursive=True))
    sources_ = []
    for path in files:
        with open(path, "rb") as f:
            sources_.append((path, f.read()))
    scratch = tempfile.mkdtemp(prefix="aiython-stages-")
    options = {"model_configured": True, "project_root": folder, "context_values": True,
               "cache": {"dir": os.path.join(scratch, "warm"), "version": "stages", "max_bytes": 1 << 30}}
    try:
        for path, data in sources_:  # fill the warm cache
            prepare.module_code(Server(), options, data, path, lambda text: None)
        best = {}
        for round_ in range(rounds):
            totals = {}
            cold(totals, sources_, os.path.join(scratch, "cold%d" % round_))
            warm(totals, sources_, options)
            for stage, seconds in totals.items():
                best[stage] = min(best.get(stage, float("inf")), seconds)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("%d modules, CPU ms per module, best of %d rounds (Python %s)" % (len(files), rounds, sys.version.split()[0]))
    for stage, seconds in best.items():
        print("  %-30s %7.3f" % (stage, seconds * 1000 / len(files)))


main()
