// Nothing of aiython's lies below the program's first frame (SPEC §2), with a model configured or
// not, on 3.11–3.13: traceback.print_stack() and extract_stack(), inspect.stack() and
// sys._getframe() at module level, and RecursionError's "Previous line repeated N more times" are
// python3's byte for byte, for a file and for `-m module`; the program recurses exactly as deep as
// under python3, under the default limit and one it sets, and sys.setrecursionlimit() reports the
// same depth when it refuses a limit.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { besidePython, INTERPRETERS, MODES } from "./support/interpreters.js";
import { ROOT } from "./support/run-cli.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");

/** [name, arguments, the stream python3's run shows it on, what it shows] */
const CASES: [string, string[], "stdout" | "stderr", RegExp][] = [
  ["print_stack.py", ["print_stack.py"], "stdout", /^below module None 1 1\nsys\._getframe\(1\): call stack is not deep enough\n$/],
  ["recursion.py", ["recursion.py"], "stderr", /\n {2}\[Previous line repeated 996 more times\]\nRecursionError: maximum recursion depth exceeded\n$/],
  ["-m recursion", ["-m", "recursion"], "stderr", /\n {2}\[Previous line repeated 99\d more times\]\nRecursionError: maximum recursion depth exceeded\n$/],
  [
    "recursion_limit.py",
    ["recursion_limit.py"],
    "stdout",
    /^limit 1000\nreached 99\d\nlimit 80 reached 7\d\ncannot set the recursion limit to 1 at the recursion depth [12]: the limit is too low\n$/,
  ],
];

for (const [version, python] of INTERPRETERS) {
  for (const [mode, model] of MODES) {
    for (const [name, args, stream, expected] of CASES) {
      test(`${version} ${mode}: ${name} sees the frames below the program as python3 does`, { skip: !python && `needs ${version}` }, async () => {
        const { ours, theirs } = await besidePython(python!, args, model, FIXTURES);
        assert.match(String(theirs[stream]), expected);
        assert.equal(ours.stdout, theirs.stdout);
        assert.equal(ours.stderr, theirs.stderr);
        assert.equal(ours.exitCode, theirs.exitCode);
      });
    }
  }
}
