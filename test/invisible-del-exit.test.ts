// A __del__ raising SystemExit, during the run and at shutdown, and a cycle's __del__ after
// `raise SystemExit(0)` (CPython's test_gc test_global_del_SystemExit): the same output, "Exception
// ignored" reports and exit status as python3's, with a model configured or not, on 3.11–3.13
// (only the functions' addresses vary, as between two runs of python3).

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { normalise } from "./fidelity/normalise.js";
import { besidePython, INTERPRETERS, MODES } from "./support/interpreters.js";
import { ROOT } from "./support/run-cli.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");

for (const [version, python] of INTERPRETERS) {
  for (const [mode, model] of MODES) {
    test(`${version} ${mode}: __del__ raising SystemExit, and __del__ at shutdown after SystemExit, as python3`, { skip: !python && `needs ${version}` }, async () => {
      const { ours, theirs } = await besidePython(python!, ["del_system_exit.py"], model, FIXTURES);
      assert.equal(theirs.exitCode, 0);
      assert.equal(theirs.stdout, "del of during the run\n__del__ called\ndel of cycle at shutdown\ndel of global at shutdown\n");
      assert.equal(ours.stdout, theirs.stdout);
      assert.equal(normalise(String(ours.stderr)), normalise(String(theirs.stderr)));
      assert.equal(ours.exitCode, theirs.exitCode);
    });
  }
}
