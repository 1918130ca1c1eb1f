// Without a model configured, aiython adds nothing a program can see of its process (SPEC §2):
// at the program's first line the threads, signal handlers, the signal wakeup fd, the hooks,
// the tracers, the import finders and atexit are python3's, on every supported version; a
// fork there gets no DeprecationWarning about a multi-threaded process (3.12+), with a model
// configured too (nothing has paused: aiython has no thread yet). With or without
// a model, signal wakeup users (the program's own set_wakeup_fd, asyncio, trio where installed)
// get python3's answers, a pass_fds child sees no descriptor of aiython's, sys.excepthook is
// python3's, and os.closerange(3, …) leaves a program that goes on. Without a model, -m trace
// --trackcalls lists no call of aiython's in imports; with one, cProfile (a C profiler on 3.11)
// over handled failures keeps running and counts the program's calls as python3 does, and
// sys.settrace and sys.setprofile functions get python3's events (more: invisible-tracers.test.ts).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { CLI, cleanEnv, ROOT } from "./support/run-cli.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");
const PYENV = "/root/.pyenv/versions";

/** The pyenv interpreter of `version` (e.g. "3.12"), or null. */
function pythonAt(version: string): string | null {
  const dir = fs.existsSync(PYENV) ? fs.readdirSync(PYENV).find((v) => v.startsWith(`${version}.`)) : undefined;
  const exe = dir && ["python3", "python"].map((name) => path.join(PYENV, dir, "bin", name)).find((p) => fs.existsSync(p));
  return exe ?? null;
}

const INTERPRETERS: [string, string | null][] = [
  ["3.11", pythonAt("3.11") ?? "python3"],
  ["3.12", pythonAt("3.12")],
  ["3.13", pythonAt("3.13")],
];

const DEAD_MODEL = { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };

async function both(python: string, ...args: string[]) {
  return bothWith(python, args, {});
}

async function bothWith(python: string, args: string[], model: Record<string, string>) {
  const options = { cwd: FIXTURES, extendEnv: false, reject: false, stripFinalNewline: false, timeout: 60_000 };
  const [ours, theirs] = await Promise.all([
    execa(CLI, ["--python", python, "--no-journal", ...args], { ...options, env: cleanEnv(model) }),
    execa(python, args, { ...options, env: cleanEnv() }),
  ]);
  return { ours, theirs };
}

for (const [version, python] of INTERPRETERS) {
  test(`${version}: the program's first line sees python3's threads, handlers, wakeup fd, hooks, tracers, finders and atexit`, {
    skip: !python && `needs ${version}`,
  }, async () => {
    const { ours, theirs } = await both(python!, "first_line.py");
    assert.equal(theirs.exitCode, 0, theirs.stderr);
    assert.match(String(theirs.stdout), /^threads 1 1\n/);
    assert.match(String(theirs.stdout), /\nwakeup fd -1\n/);
    assert.equal(ours.stdout, theirs.stdout);
    assert.equal(ours.stderr, theirs.stderr);
    assert.equal(ours.exitCode, theirs.exitCode);
  });

  for (const [mode, model] of [
    ["unconfigured", {}],
    ["configured", DEAD_MODEL],
  ] as const) {
    test(`${version} ${mode}: os.fork() at the first line warns of no other thread, as under python3`, { skip: !python && `needs ${version}` }, async () => {
      const { ours, theirs } = await bothWith(python!, ["forks.py"], model);
      assert.equal(theirs.stdout, "child ended 7\n");
      assert.equal(ours.stdout, theirs.stdout);
      assert.equal(ours.stderr, theirs.stderr);
      assert.doesNotMatch(String(ours.stderr), /multi-threaded/);
    });
  }
}

for (const [version, python] of INTERPRETERS) {
  for (const [mode, model] of [
    ["unconfigured", {}],
    ["configured", DEAD_MODEL],
  ] as const) {
    test(`${version} ${mode}: wakeup fd users, asyncio and trio signals, pass_fds children and os.closerange as under python3`, {
      skip: !python && `needs ${version}`,
    }, async () => {
      const { ours, theirs } = await bothWith(python!, ["signals_fds.py"], model);
      assert.equal(theirs.exitCode, 0, theirs.stderr);
      assert.match(String(theirs.stdout), /\nprevious wakeup fd -1\nhandler ran 10\nwoken with \[10\]\n/);
      assert.match(String(theirs.stdout), /\nclosed 3\.\. and still here \[0, 1, 2, 3\]\ncaught division by zero\n/);
      assert.equal(ours.stdout, theirs.stdout);
      assert.equal(ours.stderr, theirs.stderr);
      assert.equal(ours.exitCode, theirs.exitCode);
    });
  }
}

test("unconfigured: -m trace --trackcalls of a program importing project modules lists python3's calls, none of aiython's", async () => {
  // The two runs go side by side: where bytecode may be written (PYTHONDONTWRITEBYTECODE unset), a
  // run of python3 first leaves both the same __pycache__ to read, so neither sees the other's writes.
  await execa(INTERPRETERS[0][1]!, ["traced.py"], { cwd: FIXTURES, env: cleanEnv(), extendEnv: false, reject: false });
  const { ours, theirs } = await both(INTERPRETERS[0][1]!, "-m", "trace", "--trackcalls", "traced.py");
  assert.equal(theirs.exitCode, 0, String(theirs.stderr));
  assert.match(String(theirs.stdout), /calling relationships:/);
  assert.doesNotMatch(String(ours.stdout), /aiython/);
  assert.equal(ours.stdout, theirs.stdout);
  assert.equal(ours.stderr, theirs.stderr);
});

for (const [version, python] of INTERPRETERS) {
  test(`${version} configured: cProfile over statements that fail and are handled keeps running, and counts the program's calls as python3`, {
    skip: !python && `needs ${version}`,
  }, async () => {
    const { ours, theirs } = await bothWith(python!, ["profiled.py"], DEAD_MODEL);
    assert.equal(theirs.exitCode, 0, String(theirs.stderr));
    assert.equal(ours.exitCode, 0, String(ours.stderr));
    const program = (out: unknown) =>
      String(out)
        .split("\n")
        .filter((line) => /^(helper|profiled)\.py /.test(line));
    assert.ok(program(theirs.stdout).includes("helper.py parse 12"));
    assert.deepEqual(program(ours.stdout), program(theirs.stdout));
  });
}

test("configured: sys.settrace and sys.setprofile over handled failures report what python3's do (the handlers' calls unseen)", async () => {
  const { ours, theirs } = await bothWith(INTERPRETERS[0][1]!, ["tracers.py"], DEAD_MODEL);
  assert.equal(theirs.exitCode, 0, String(theirs.stderr));
  assert.match(String(theirs.stdout), /^exception helper\.py parse 5$/m);
  assert.equal(ours.stdout, theirs.stdout);
  assert.equal(ours.stderr, theirs.stderr);
  assert.equal(ours.exitCode, theirs.exitCode);
});
