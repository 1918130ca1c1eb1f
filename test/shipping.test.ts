// The program's code ships as python3's does (SPEC §2): with a model configured, a lambda of the
// main script pickled by value (cloudpickle, as joblib, Dask and Ray do) runs in this process and
// in a plain python3 without aiython, a failure included, exactly as under python3. Where
// cloudpickle is not installed both print that it is absent.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { CLI, cleanEnv, PYTHON, ROOT } from "./support/run-cli.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");
const DEAD_MODEL = { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };

test("a main-script lambda cloudpickled with a model configured runs here and in a plain python3 as under python3", async () => {
  const options = { cwd: FIXTURES, extendEnv: false, reject: false, stripFinalNewline: false, timeout: 60_000 };
  const theirs = await execa(PYTHON, ["ship_code.py"], { ...options, env: cleanEnv() });
  const ours = await execa(CLI, ["--no-journal", "ship_code.py"], { ...options, env: cleanEnv(DEAD_MODEL) });
  assert.equal(theirs.exitCode, 0, String(theirs.stderr));
  assert.match(String(theirs.stdout), /^(cloudpickle absent|here 9\nthere 9 \| TypeError: can only concatenate str \(not "int"\) to str)\n$/);
  assert.equal(ours.stdout, theirs.stdout);
  assert.equal(ours.stderr, theirs.stderr);
  assert.equal(ours.exitCode, theirs.exitCode);
});
