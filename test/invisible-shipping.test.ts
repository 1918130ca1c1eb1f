// Functions of the main script shipped to worker processes by reference (multiprocessing's fork,
// spawn and forkserver pools) return what they return under python3, and a worker's failure
// prints the same traceback, RemoteTraceback included, with no frame or path of aiython's: byte
// for byte python3's, with a model configured or not, on 3.11–3.13.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { besidePython, INTERPRETERS, MODES } from "./support/interpreters.js";
import { ROOT } from "./support/run-cli.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");

for (const [version, python] of INTERPRETERS) {
  for (const [mode, model] of MODES) {
    test(`${version} ${mode}: pools of every start method run main-script functions and report their failures as python3`, {
      skip: !python && `needs ${version}`,
    }, async () => {
      const { ours, theirs } = await besidePython(python!, ["ship_spawn.py"], model, FIXTURES);
      assert.equal(theirs.stdout, "fork [2, 4, 6, 8]\nspawn [2, 4, 6, 8]\nforkserver [2, 4, 6, 8]\n");
      assert.equal(String(theirs.stderr).match(/multiprocessing\.pool\.RemoteTraceback/g)?.length, 3);
      assert.equal(ours.stdout, theirs.stdout);
      assert.equal(ours.stderr, theirs.stderr);
      assert.equal(ours.exitCode, theirs.exitCode);
    });
  }
}
