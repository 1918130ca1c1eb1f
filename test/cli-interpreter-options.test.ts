// CPython's own command-line options (SPEC §2): read before the program exactly as python3 reads
// them (clusters, `-W ARG` / `-WARG`, `-c` / `-m` ending the options), mixed with aiython's,
// passed to the interpreter, and seen by the program as under python3: sys.flags,
// sys.warnoptions, sys._xoptions, sys.orig_argv, -x, -V, CPython's refusals. Each run is
// compared with python3 byte for byte, with and without a model configured.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { earlyStart } from "../src/cli/early-start.js";
import { splitArgv } from "../src/cli/split-argv.js";
import { bridgeDir } from "../src/bridge/start-bridge.js";
import { VERSION } from "../src/version.js";
import { aiython, assertSame, cleanEnv, PROGRAMS, PYTHON } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

/** A model is configured (every program is planned and checkpointed) but never reachable. */
const MODEL = { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-test" };

/** The fixture copied into a fresh project, so that a configured model's journal and cache stay there. */
function project(fixture: string): string {
  return tempProject({ [fixture]: { copy: path.join(PROGRAMS, fixture) } }, { prefix: "aiython-options-" });
}

// ---- how the command line is split -------------------------------------------------------------

const SPLITS: { argv: string[]; interpreter: string[]; aiython: string[]; orig: string[]; program: object | null; args?: string[] }[] = [
  {
    argv: ["-uB", "-W", "error", "x.py", "-u"],
    interpreter: ["-uB", "-W", "error"],
    aiython: [],
    orig: ["-uB", "-W", "error", "x.py", "-u"],
    program: { kind: "script", path: "x.py" },
    args: ["-u"],
  },
  { argv: ["-Werror", "-Xdev", "x.py"], interpreter: ["-Werror", "-Xdev"], aiython: [], orig: ["-Werror", "-Xdev", "x.py"], program: { kind: "script", path: "x.py" } },
  {
    argv: ["-u", "--model", "m", "-X", "dev", "--stats", "x.py"],
    interpreter: ["-u", "-X", "dev"],
    aiython: ["--model", "m", "--stats"],
    orig: ["-u", "-X", "dev", "x.py"],
    program: { kind: "script", path: "x.py" },
  },
  { argv: ["-W", "--model", "x.py"], interpreter: ["-W", "--model"], aiython: [], orig: ["-W", "--model", "x.py"], program: { kind: "script", path: "x.py" } },
  { argv: ["-Bc", "print(1)", "a"], interpreter: ["-B"], aiython: [], orig: ["-Bc", "print(1)", "a"], program: { kind: "code", code: "print(1)" }, args: ["a"] },
  { argv: ["-uBcprint(2)"], interpreter: ["-uB"], aiython: [], orig: ["-uBcprint(2)"], program: { kind: "code", code: "print(2)" } },
  { argv: ["-Im", "json.tool", "-h"], interpreter: ["-I"], aiython: [], orig: ["-Im", "json.tool", "-h"], program: { kind: "module", name: "json.tool" }, args: ["-h"] },
  {
    argv: ["--check-hash-based-pycs", "never", "-OO", "-"],
    interpreter: ["--check-hash-based-pycs", "never", "-OO"],
    aiython: [],
    orig: ["--check-hash-based-pycs", "never", "-OO", "-"],
    program: { kind: "stdin" },
  },
  { argv: ["-uh"], interpreter: [], aiython: ["-h"], orig: [], program: null },
  { argv: ["-Wh", "x.py"], interpreter: ["-Wh"], aiython: [], orig: ["-Wh", "x.py"], program: { kind: "script", path: "x.py" } },
  { argv: ["-uz", "x.py"], interpreter: ["-uz"], aiython: [], orig: ["-uz", "x.py"], program: { kind: "script", path: "x.py" } },
];

for (const { argv, interpreter, aiython: own, orig, program, args = [] } of SPLITS) {
  test(`split as python3 splits: ${argv.join(" ")}`, () => {
    const split = splitArgv(argv);
    assert.deepEqual(split.interpreter.args, interpreter, "interpreter options");
    assert.deepEqual(split.optionArgs, own, "aiython's options");
    assert.deepEqual(split.origArgv, orig, "sys.orig_argv[1:]");
    assert.deepEqual(split.program, program);
    assert.deepEqual(split.programArgs, args);
  });
}

test("-i, -x and -V are read inside clusters; -W and -X need a value", () => {
  assert.deepEqual({ ...splitArgv(["-uix", "a.py"]).interpreter, args: [] }, { args: [], inspect: true, skipFirstLine: true, query: false });
  assert.equal(splitArgv(["-VV"]).interpreter.query, true);
  assert.equal(splitArgv(["--help-xoptions"]).interpreter.query, true);
  assert.throws(() => splitArgv(["-W"]), /-W needs a value/);
  assert.throws(() => splitArgv(["-uX"]), /-X needs a value/);
});

test("the interpreter still starts early for a run with CPython's options, not for -V", () => {
  const started = earlyStart(["-u", "-W", "error", "x.py"], bridgeDir(), []);
  assert.ok(started, "started before the CLI loads");
  started.kill("SIGKILL");
  const query = earlyStart(["-V"], bridgeDir(), []);
  query?.kill("SIGKILL");
  assert.equal(query, undefined, "-V runs no program");
});

// ---- what the program sees ---------------------------------------------------------------------

const OPTION_SETS = [
  ["-u"],
  ["-W", "error"],
  ["-Werror"],
  ["-X", "dev"],
  ["-Xdev"],
  ["-O"],
  ["-OO"],
  ["-B"],
  ["-I"],
  ["-E"],
  ["-s"],
  ["-S"],
  ["-b"],
  ["-bb"],
  ["-q"],
  ["-P"],
  ["-R"],
  ["-d"],
  ["-uB"],
  ["--check-hash-based-pycs", "never"],
  ["-X", "dev", "-W", "error", "-bb", "-X", "warn_default_encoding", "-I"],
];

for (const options of OPTION_SETS) {
  test(`${options.join(" ")}: the program sees what it sees under python3`, async () => {
    await assertSame([...options, "interpreter_view.py"]);
  });
  test(`${options.join(" ")}, a model configured: the same`, async () => {
    const dir = project("interpreter_view.py");
    await assertSame([...options, "interpreter_view.py"], { cwd: dir, env: cleanEnv(MODEL) });
  });
}

test("aiython's options mixed with CPython's are left out of sys.orig_argv", async () => {
  const ours = await assertSame(["-u", "--no-journal", "-W", "ignore", "--python", PYTHON, "-X", "dev", "interpreter_view.py"], {}, [
    "-u",
    "-W",
    "ignore",
    "-X",
    "dev",
    "interpreter_view.py",
  ]);
  assert.match(ours.stdout, /\['-u', '-W', 'ignore', '-X', 'dev', 'interpreter_view.py'\]/);
});

test("-c and -m end the options, inside a cluster too", async () => {
  await assertSame(["-Bc", "import sys; print(sys.orig_argv[1:], sys.argv, sys.flags.dont_write_bytecode)", "a", "-u"]);
  await assertSame(["-uBcimport sys; print(sys.orig_argv[1:], sys.flags.unbuffered if hasattr(sys.flags, 'unbuffered') else 1)"]);
  await assertSame(["-Im", "json.tool"], { input: '{"a": [1, 2]}' });
});

test("-i after -c: the console reads stdin, as with python3 -i", async () => {
  await assertSame(["-q", "-ic", "x = 41"], { input: "print(x + 1)\n" });
});

test("-x skips the script's first line and keeps line numbers, also when the source is planned", async () => {
  const ours = await assertSame(["-x", "skip_first_line.py"]);
  assert.match(ours.stderr, /line 6, in <module>\n {4}raise ValueError\("on line 6"\)\nValueError: on line 6\n$/);
  const dir = project("skip_first_line.py");
  await assertSame(["-x", "skip_first_line.py"], { cwd: dir, env: cleanEnv(MODEL) });
});

test("-V is CPython's version, --version aiython's", async () => {
  await assertSame(["-V"]);
  await assertSame(["-VV", "interpreter_view.py"]);
  await assertSame(["--help-xoptions"]);
  const own = await aiython(["--version"]);
  assert.equal(own.stdout, `${VERSION}\n`);
});

test("options CPython refuses are refused with its own words and status", async () => {
  for (const options of [["-z"], ["-J"], ["--check-hash-based-pycs", "sometimes"], ["-X", "int_max_str_digits=7"]]) {
    const ours = await assertSame([...options, "interpreter_view.py"]);
    assert.notEqual(ours.exitCode, 0);
  }
});

test("aiython's help names CPython's options", async () => {
  const help = await aiython(["-h"]);
  assert.equal(help.exitCode, 0);
  assert.match(help.stdout, /Python's own options .* -W ARG, -x, -X OPT, --check-hash-based-pycs MODE/s);
});
