# bench/overhead driver: runs a program as `__main__` with a checkpoint on every statement that
# SPEC §4.2 selects (instrument.select_checkpoints, the bridge's reference selection: the host's
# frontend does the same for real runs) and recovery switched on. Nothing fails in the program,
# so this measures the happy path only; a consultation would be a bench failure.
#   python3 bench/overhead/instrumented.py PROGRAM.py
import ast
import builtins
import os
import sys

BRIDGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bridge-py")
sys.path.insert(0, BRIDGE)

from aiython_bridge import instrument, recovery  # noqa: E402


def refuse(request, op):
    raise SystemExit(f"bench: unexpected recovery consultation at {request['block_id']}: "
                     f"{request['recovery']['exception_type']}")


def main():
    plain = sys.argv[1] == "--plain"
    if plain:
        del sys.argv[1]
    path = os.path.abspath(sys.argv[1])
    with open(path, encoding="utf-8") as f:
        source = f.read()
    tree = ast.parse(source, path)
    table = instrument.select_checkpoints(tree, source, entry=True, name=os.path.basename(path))
    runtime = recovery.CheckpointRuntime(recovery.LocalDecisions(refuse), project_root=os.path.dirname(path))
    code = compile(source, path, "exec") if plain else instrument.compile_checkpointed(
        source, path, {"checkpoints": table}, runtime, entry=True)
    del sys.path[0]
    sys.argv = sys.argv[1:]
    print(f"checkpoints {len(table)}", file=sys.stderr)
    exec(code, {"__name__": "__main__", "__file__": path, "__builtins__": builtins})


main()
