// An AI block's AIError printed from anywhere carries the program's frames only (SPEC §2): caught
// and printed with traceback.print_exc(), or uncaught in a thread, its traceback ends at the
// block's line, in sync code and in a coroutine (`await`), with no frame of aiython's and no path of aiython's install, on 3.11–3.13 (a
// model that cannot be reached: each block raises AIError).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { CLI, cleanEnv, ROOT } from "./support/run-cli.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");
const PYENV = "/root/.pyenv/versions";
const pythonAt = (version: string) => {
  const dir = fs.existsSync(PYENV) ? fs.readdirSync(PYENV).find((v) => v.startsWith(`${version}.`)) : undefined;
  return dir ? path.join(PYENV, dir, "bin", "python3") : null;
};

const DEAD_MODEL = { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-test" };

for (const [version, fixture, kind] of ["3.11", "3.12", "3.13"].flatMap((v) => [
  [v, "caught_ai_error.py", "sync"],
  [v, "caught_ai_error_async.py", "async"],
])) {
  const python = pythonAt(version) ?? (version === "3.11" ? "python3" : null);
  test(`${version}: ${kind === "sync" ? "a" : "an"} ${kind} block's caught AIError's print_exc() and a thread's uncaught one show the program's frames only`, {
    skip: !python && `needs ${version}`,
  }, async () => {
    const result = await execa(CLI, ["--python", python!, "--no-journal", fixture], {
      cwd: FIXTURES,
      env: cleanEnv(DEAD_MODEL),
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    const stderr = String(result.stderr);
    assert.equal(result.exitCode, 0, stderr);
    assert.doesNotMatch(stderr, /aiython_bridge/);
    assert.ok(!stderr.includes(path.join(ROOT, "bridge-py")), "no path of aiython's install");
    const tracebacks = stderr.split("Traceback (most recent call last):\n").slice(1);
    assert.equal(tracebacks.length, 4, stderr);
    for (const text of tracebacks) {
      const files = [...text.matchAll(/^ {2}File "([^"]+)", line (\d+), in (\S+)$/gm)];
      assert.deepEqual(files.at(-1)?.slice(2), ["11", "ask"], text);
      assert.match(text, /\n {4}total = add up the numbers one to ten\n[ ^~]*\naiython\.AIError: /);
    }
  });
}
