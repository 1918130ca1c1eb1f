// End-to-end: `.aiython` (or `.aiython/cache`) that is a regular file, not a folder. A configured
// project's runs go on as python3's would — a plain program prints and exits 0, `runs list` says
// there is nothing recorded, a program with an AI block runs with at most a warning that the
// journal is off — and `setup --set-key` says what is wrong and how to fix it, saving nothing.
// Before, every one of these ended with `aiython: internal error: ENOTDIR …` (exit 70).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { finishCall } from "./support/loopback-model.js";
import { aiython, cleanEnv } from "./support/run-cli.js";
import { runWithModel } from "./support/run-with-model.js";
import { tempProject } from "./support/temp-project.js";

const TOML = 'version = 3\nmodel = "openai/gpt-4.1-mini"\n';
const layouts = {
  ".aiython is a file": { ".aiython": "not a folder\n" },
  ".aiython/cache is a file": { ".aiython/cache": "not a folder\n" },
};

for (const [name, files] of Object.entries(layouts)) {
  test(`${name}: a plain program and runs list behave, exit 0`, async () => {
    const dir = tempProject({ "main.py": 'print("plain")\n', "aiython.toml": TOML, ...files });
    const env = cleanEnv({ OPENAI_API_KEY: "sk-state-test" });
    const run = await aiython(["main.py"], { cwd: dir, env });
    assert.deepEqual([run.exitCode, run.stdout, run.stderr], [0, "plain\n", ""]);
    const runs = await aiython(["runs", "list"], { cwd: dir, env });
    assert.equal(runs.exitCode, 0, runs.stderr);
    assert.match(runs.stdout, /no runs recorded yet/);
  });

  test(`${name}: a program with an AI block runs, with at most a warning`, async () => {
    const run = await runWithModel({ "main.py": "x = pick a number\nprint(x)\n", ...files }, [finishCall({ kind: "literal", value: 7 })]);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.stdout, "7\n");
    assert.match(run.stderr, /^(aiython: journal disabled: \.aiython in .* is not a folder; remove or rename it\n)?$/);
  });
}

test("setup --set-key with .aiython a file names the problem and the fix, and writes no aiython.toml", async () => {
  const dir = tempProject({ ".aiython": "not a folder\n" });
  const run = await aiython(["setup", "--provider", "openai", "--model", "gpt-4.1-mini", "--set-key"], { cwd: dir, env: cleanEnv(), input: "sk-state-test\n" });
  assert.equal(run.exitCode, 78);
  assert.equal(run.stderr, `aiython: cannot store the key: .aiython in ${dir} is not a folder; remove or rename it, then run aiython setup --set-key again\n`);
  assert.equal(fs.existsSync(path.join(dir, "aiython.toml")), false);
});
