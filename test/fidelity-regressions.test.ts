// With a model configured, a real program behaves exactly as under python3: each fixture of
// test/fixtures/fidelity/ (its first line says what it checks) runs under python3, under aiython
// unconfigured, and under aiython configured with a model at a dead address, in a project folder
// of its own, and all three print the same bytes and exit the same way. The cases that need a
// pipe or a terminal around the program set it up themselves.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { CLI, cleanEnv, PYTHON, ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "fidelity");
const DEAD_MODEL = { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };

interface Ran {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
}

type Mode = "python3" | "unconfigured" | "configured";

/** Runs `shell` (PROG the command, FILE the fixture) in `dir`, left as the fixture alone before. */
async function run(mode: Mode, dir: string, fixture: string, shell = "PROG FILE"): Promise<Ran & { files: string[] }> {
  for (const name of fs.readdirSync(dir)) if (name !== fixture && name !== ".git") fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  const program = mode === "python3" ? PYTHON : `${CLI} --no-journal`;
  const env = cleanEnv(mode === "configured" ? DEAD_MODEL : {});
  const command = shell.replaceAll("PROG", program).replaceAll("FILE", fixture);
  const result = await execa("bash", ["-c", command], { cwd: dir, env, extendEnv: false, reject: false, stripFinalNewline: false, timeout: 60_000 });
  return { stdout: String(result.stdout), stderr: String(result.stderr), exitCode: result.exitCode, files: leftIn(dir) };
}

/** The files in `dir`, less `.aiython/` when it holds only the preparation cache (SPEC §4.1: aiython's `__pycache__`). */
function leftIn(dir: string): string[] {
  const state = path.join(dir, ".aiython");
  const onlyCache = fs.existsSync(state) && fs.readdirSync(state).every((name) => name === "cache" || name === ".gitignore");
  return fs
    .readdirSync(dir)
    .filter((name) => !(name === ".aiython" && onlyCache))
    .sort();
}

/** What legitimately differs between two runs of one program under python3 itself. */
function normalised(text: string): string {
  return text.replace(/Ran (\d+) tests? in \d+\.\d+s/g, "Ran $1 tests in N.NNNs").replace(/ at 0x[0-9a-f]+/g, " at 0x…");
}

/** The three modes one after another in one folder (paths in tracebacks are the same). */
async function assertSameEverywhere(fixture: string, shell?: string, normalise: (text: string) => string = normalised): Promise<Ran> {
  const dir = tempProject({ [fixture]: { copy: path.join(FIXTURES, fixture) } }, { prefix: "aiython-fidelity-" });
  const theirs = await run("python3", dir, fixture, shell);
  for (const mode of ["unconfigured", "configured"] as const) {
    const ours = await run(mode, dir, fixture, shell);
    assert.equal(normalise(ours.stderr), normalise(theirs.stderr), `${fixture} ${mode}: stderr`);
    assert.equal(normalise(ours.stdout), normalise(theirs.stdout), `${fixture} ${mode}: stdout`);
    assert.equal(ours.exitCode, theirs.exitCode, `${fixture} ${mode}: exit status`);
    assert.deepEqual(ours.files, theirs.files, `${fixture} ${mode}: files left in the project`);
  }
  return theirs;
}

test("A: fds 0-2 stay blocking pipes and a slow reader gets every byte", async () => {
  const theirs = await assertSameEverywhere("pipes.py", "echo | PROG FILE 2>&1 | (sleep 0.5; wc -c; head -c 0)");
  assert.match(theirs.stdout, /^\s*\d+\n$/);
  const flags = await assertSameEverywhere("pipes.py", "echo | PROG FILE 2>&1 >/dev/null | cat");
  assert.equal(flags.stdout, "True True True\n");
});

for (const fixture of ["unittest_failure.py", "doctest_raises.py", "futures_and_gather.py"]) {
  test(`B: an exception a library handles is never consulted: ${fixture}`, async () => {
    await assertSameEverywhere(fixture);
  });
}

test("C: an unhandled RecursionError prints one block, as CPython's", async () => {
  const theirs = await assertSameEverywhere("recursion.py");
  assert.doesNotMatch(theirs.stderr, /During handling/);
});

test("D: a parenthesised annotation does not make the name local", async () => {
  const theirs = await assertSameEverywhere("paren_annotation.py");
  assert.equal(theirs.stdout, "NameError name 'g' is not defined\n");
});

test("E: nothing generated fails while the interpreter finalizes", async () => {
  await assertSameEverywhere("shutdown.py");
});

test("F: a task nobody awaits ends with its exception, and CPython's message is printed", async () => {
  const theirs = await assertSameEverywhere("task_never_retrieved.py");
  assert.match(theirs.stderr, /Task exception was never retrieved/);
});

test("G: warnings at module level and sys.modules see no bridge", async () => {
  const theirs = await assertSameEverywhere("stack_view.py");
  assert.match(theirs.stderr, /^sys:1: UserWarning: module level/);
});

test("G2: sys.modules holds exactly what it holds under python3, and a later import of json works", async () => {
  const theirs = await assertSameEverywhere("all_modules.py");
  assert.match(theirs.stdout, /^\['__main__', .*'sys'.*\]\n\{"a": \[1, "\\u00e9"\]\} \[1\.5\] True\n$/);
});

test("G3: a program whose compile warns shows it once, with python3's sys.modules, and catches later warnings itself", async () => {
  const theirs = await assertSameEverywhere("compile_warning_modules.py");
  // 3.11 warns with a DeprecationWarning, which python3 does not show at compile time; 3.12 and 3.13 show a SyntaxWarning.
  assert.match(theirs.stderr, /^(|.*compile_warning_modules\.py:6: SyntaxWarning: invalid escape sequence '\\d'\n {2}pattern = "\\d\+"\n)$/);
  assert.match(theirs.stdout, /\n\["invalid escape sequence '\\\\w'"\] \\d\+\n$/);
});

test("G4: a script with a latin-1 cookie finds python3's sys.modules, its codec's module included", async () => {
  const theirs = await assertSameEverywhere("latin1_modules.py");
  assert.match(theirs.stdout, /^café \[.*'encodings\.latin_1'.*\]\n$/);
  assert.doesNotMatch(theirs.stdout, /'tokenize'/);
});

test("H: the modules preparation parses with are not the program's, and its own import of them works", async () => {
  const theirs = await assertSameEverywhere("preparation_modules.py");
  assert.match(theirs.stdout, /^\[False, False, False\]\n/);
});

test("H2: a project module prepared with its checkpoints leaves none of preparation's modules to the program", async () => {
  const theirs = await assertSameEverywhere("preparation_modules_import.py");
  assert.match(theirs.stdout, /^12 4\n\[False, False, False, False, False, /);
});

test("L: a reader that goes away is CPython's BrokenPipeError, never a consultation", async () => {
  await assertSameEverywhere("many_lines_head.py", "PROG FILE | head -1");
});
