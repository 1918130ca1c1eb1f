# The check of typed_results.py for `aiython eval`: reads the run's output on stdin and exits 0
# when the invoice was read (any model's wording of it passes while the totals agree).
import os
import sys

output = sys.stdin.read()
if os.environ.get("AIYTHON_EVAL_EXIT") != "0":
    sys.exit("the program did not exit 0")
if "INV-1042" not in output or "total matches lines: True" not in output:
    sys.exit("no invoice INV-1042 whose lines add up to its total")
