// The suite's own harness: every child a test spawns gets a defined colour environment (node
// --test sets FORCE_COLOR for test processes when its stdout is a terminal, so `npm test` on a
// terminal saw colour where the tests expect none), and `npm test`'s reporter prints one line per
// file as it finishes, each failure's name, place and error, and a summary.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { cleanEnv, ROOT } from "./support/run-cli.js";

test("cleanEnv: no colour variable reaches a child, TERM is dumb, and a test may still ask for colour", () => {
  const saved = { ...process.env };
  Object.assign(process.env, { FORCE_COLOR: "1", NO_COLOR: "1", PYTHON_COLORS: "1", CLICOLOR_FORCE: "1", TERM: "xterm-256color" });
  try {
    const env = cleanEnv();
    for (const key of ["FORCE_COLOR", "NO_COLOR", "PYTHON_COLORS", "CLICOLOR_FORCE"]) assert.equal(env[key], undefined, key);
    assert.equal(env.TERM, "dumb");
    assert.equal(cleanEnv({ FORCE_COLOR: "3" }).FORCE_COLOR, "3");
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
});

test("the progress reporter: a numbered line per file, each failure with its file, a summary with the counts", async () => {
  const dir = path.join(ROOT, "test", "fixtures", "harness");
  const result = await execa(
    process.execPath,
    ["--test", "--test-concurrency=1", `--test-reporter=${path.join(ROOT, "test", "support", "progress-reporter.mjs")}`, "passes.test.mjs", "fails.test.mjs"],
    { cwd: dir, env: cleanEnv(), extendEnv: false, reject: false, stripFinalNewline: false },
  );
  assert.equal(result.exitCode, 1);
  const lines = result.stdout.split("\n");
  const progress = lines.filter((line) => /^\[\d\/2\]/.test(line)).map((line) => line.replace(/ {2}\d+\.\d s$/, ""));
  assert.deepEqual(
    progress.map((line) => line.slice(0, 6)),
    ["[1/2] ", "[2/2] "],
  );
  assert.deepEqual(progress.map((line) => line.slice(6)).sort(), ["✔ passes.test.mjs", "✖ fails.test.mjs"]);
  assert.match(result.stdout, /(^|\n) {2}✖ breaks \(fails\.test\.mjs:6:1\)\n {4}AssertionError \[ERR_ASSERTION\]/);
  assert.match(result.stdout, /\n3 passed, 1 failed, 1 skipped in 2 files, \d+\.\d s; failed in fails\.test\.mjs\n$/);
});
