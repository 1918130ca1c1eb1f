// With a model configured, the program's tracers and profilers report it as python3's do, on
// 3.11, 3.12 and 3.13: sys.settrace's and sys.setprofile's every event, -m trace (--trackcalls,
// --listfuncs, --count), -m cProfile and -m profile, pdb stepping from stdin, over project
// statements that fail and are handled (their checkpoint handlers call into aiython). The model is
// at a dead address and never asked; a second case has a scripted model complete a failure while
// a tracer and a profiler are on: they see the statement fail and the next one run. A
// sys.monitoring tool (3.12+) sees python3's events plus the handler's catch and re-raise.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { INTERPRETERS } from "./support/interpreters.js";
import { CLI, cleanEnv, ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");
const DEAD_MODEL = { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
const FILES = ["helper.py", "trace_events.py", "tool_cli.py", "main_failures.py", "pdb_steps.py", "pdb_steps.txt", "monitored.py"];

/** python3, then aiython with `model`, in one project folder (the same paths in what they print; run apart, so that neither sees the other's files). */
async function python3ThenOurs(python: string, args: string[], model: Record<string, string> = DEAD_MODEL, stdin?: string) {
  const cwd = tempProject(Object.fromEntries([...FILES, ...args.filter((a) => a.endsWith(".py"))].map((f) => [f, { copy: path.join(FIXTURES, f) }])));
  const options = { cwd, extendEnv: false, reject: false, stripFinalNewline: false, timeout: 60_000, ...(stdin ? { inputFile: path.join(FIXTURES, stdin) } : {}) };
  const theirs = await execa(python, args, { ...options, env: cleanEnv() });
  fs.rmSync(path.join(cwd, "cover"), { recursive: true, force: true });
  const ours = await execa(CLI, ["--python", python, "--no-journal", ...args], { ...options, env: cleanEnv(model) });
  return { ours, theirs };
}

const tool = (...args: string[]) => ["tool_cli.py", ...args, "main_failures.py"];
const CASES: { name: string; args: string[]; stdin?: string; shows: RegExp }[] = [
  { name: "sys.settrace's every event", args: ["trace_events.py"], shows: /^exception parse helper\.py 5 $/m },
  { name: "sys.setprofile's every event, C calls included", args: ["trace_events.py", "profile"], shows: /^c_call parse_all helper\.py 15 append$/m },
  { name: "-m trace --trackcalls", args: tool("trace", "--trackcalls"), shows: /^ {4}helper\.parse_all -> helper\.parse$/m },
  { name: "-m trace --listfuncs", args: tool("trace", "--listfuncs"), shows: /modulename: helper, funcname: parse$/m },
  {
    name: "-m trace --count --missing --summary",
    args: tool("trace", "--count", "--missing", "--summary", "-C", "cover"),
    shows: /^ +11 +81% +\S+\.helper +\(\S+\/helper\.py\)$/m,
  },
  { name: "-m cProfile -s calls", args: tool("cProfile", "-s", "calls"), shows: /^3 helper\.py:4\(parse\)$/m },
  { name: "-m profile -s calls", args: tool("profile", "-s", "calls"), shows: /^3 helper\.py:4\(parse\)$/m },
  { name: "pdb's step and next", args: ["pdb_steps.py"], stdin: "pdb_steps.txt", shows: /^\(Pdb\) ValueError: invalid literal.*\n> .*helper\.py\(5\)parse\(\)$/m },
];

for (const [version, python] of INTERPRETERS) {
  for (const { name, args, stdin, shows } of CASES) {
    test(`${version} configured: ${name} over handled failures reports what python3's does`, { skip: !python && `needs ${version}` }, async () => {
      const { ours, theirs } = await python3ThenOurs(python!, args, DEAD_MODEL, stdin);
      assert.equal(theirs.exitCode, 0, String(theirs.stderr));
      assert.match(String(theirs.stdout), shows);
      assert.equal(ours.stdout, theirs.stdout);
      assert.equal(ours.stderr, theirs.stderr);
      assert.equal(ours.exitCode, theirs.exitCode);
    });
  }

  test(`${version}: a tracer and a profiler on while the model completes a failure see it fail and the next statement run`, {
    skip: !python && `needs ${version}`,
  }, async () => {
    const model = { AIYTHON_MODEL: `script:${path.join(FIXTURES, "consulted_rules.toml")}` };
    const { ours } = await python3ThenOurs(python!, ["consulted.py"], model);
    assert.equal(ours.exitCode, 0, String(ours.stderr));
    assert.match(String(ours.stderr), /^aiython: helper\.py:5: ValueError recovered: completed with a value for value/);
    const lines = String(ours.stdout).split("\n");
    assert.equal(lines[0], "value 7 tracers back (True, True)");
    const expected = ["trace call helper.py parse 4", "profile call helper.py parse ", "trace line helper.py parse 5", "trace exception helper.py parse 5"];
    expected.push("trace line helper.py parse 6", "trace return helper.py parse 6", "profile return helper.py parse ");
    assert.deepEqual(lines.slice(1, 8), expected);
    assert.deepEqual(
      lines.filter((line) => !/ (consulted|helper)\.py /.test(line) && line.trim() !== ""),
      [lines[0]],
    );
  });
}

for (const [version, python] of INTERPRETERS.slice(1)) {
  test(`${version} configured: a sys.monitoring tool gets python3's events, and the handler's catch and re-raise`, { skip: !python && `needs ${version}` }, async () => {
    const { ours, theirs } = await python3ThenOurs(python!, ["monitored.py"]);
    assert.equal(theirs.exitCode, 0, String(theirs.stderr));
    assert.match(String(theirs.stdout), /^py_unwind helper\.py parse 5 ValueError$/m);
    assert.doesNotMatch(String(theirs.stdout), /^(exception_handled|reraise) helper\.py parse /m);
    const handler = /^(exception_handled|reraise) helper\.py parse 5 ValueError\n/gm;
    assert.match(String(ours.stdout), handler);
    assert.equal(String(ours.stdout).replace(handler, ""), theirs.stdout);
    assert.equal(ours.stderr, theirs.stderr);
  });
}
