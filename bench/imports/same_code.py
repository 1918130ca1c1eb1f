# bench/imports: whether two trees' 3.11 bytecode checkpoint writers
# (bridge-py/aiython_bridge/recovery/bytecode/instrument.py) write the same code objects. For
# every .py file under each FOLDER (or each FILE) as a project module, each tree's instrument_code
# runs in its own python3 (PYTHONHASHSEED=0: a set constant's order is then the same) and every
# code object it writes is compared: co_code, exception table, line table, stack size, names and
# constants, nested code objects included. Prints how many modules were compared, how many each
# tree instrumented, and the modules that differ; exits 1 when any does. For a change that must
# keep the writer's output byte for byte (a speed-up):
#   python3 bench/imports/same_code.py /work/main/bridge-py bridge-py FOLDER|FILE...
import json
import os
import subprocess
import sys

DIGESTS = r"""
import ast, glob, hashlib, json, os, sys
sys.path.insert(0, sys.argv[1])
from aiython_bridge.recovery import instrument, selection, statement_index
try:
    from aiython_bridge.recovery.bytecode import instrument as bytecode_instrument
except ImportError:  # a tree from before recovery/bytecode/
    from aiython_bridge.recovery import bytecode_instrument
PLACEHOLDERS = (instrument.RUNTIME, instrument.EXCEPTION, instrument.RECURSION_ERROR)
CODE = type(compile("", "", "exec"))

def shown(const):
    if type(const) is CODE:
        return described(const)
    if any(const is placeholder for placeholder in PLACEHOLDERS):
        return ("placeholder", [p is const for p in PLACEHOLDERS].index(True))
    return repr(const)

def described(code):
    return (code.co_code.hex(), code.co_exceptiontable.hex(), code.co_linetable.hex(), code.co_stacksize,
            code.co_names, [shown(const) for const in code.co_consts])

digests = {}
for place in sys.argv[2:]:
    paths = [place] if place.endswith(".py") else sorted(glob.glob(os.path.join(place, "**", "*.py"), recursive=True))
    for path in paths:
        try:
            with open(path, "rb") as f:
                data = f.read()
            text = data.decode("utf-8")
            plain, tree = compile(data, path, "exec", dont_inherit=True), ast.parse(text, path)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        sites = selection.selected_sites(statement_index.index_statements(tree, []), text, entry=False,
                                         name=os.path.basename(path))
        code = bytecode_instrument.instrument_code(plain, sites, PLACEHOLDERS)
        digests[path] = None if code is None else hashlib.sha256(repr(described(code)).encode()).hexdigest()
print(json.dumps(digests))
"""


def digests(bridge, places):
    environment = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run([sys.executable, "-c", DIGESTS, os.path.abspath(bridge)] + places, env=environment,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: python3 bench/imports/same_code.py BRIDGE_A BRIDGE_B FOLDER|FILE...")
    first, second = digests(sys.argv[1], sys.argv[3:]), digests(sys.argv[2], sys.argv[3:])
    differ = sorted(path for path in first.keys() | second.keys() if first.get(path) != second.get(path))
    print("%d modules compared; instrumented: %d (A), %d (B); %d differ" % (
        len(first), sum(v is not None for v in first.values()), sum(v is not None for v in second.values()), len(differ)))
    for path in differ:
        print("  differs:", path)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
