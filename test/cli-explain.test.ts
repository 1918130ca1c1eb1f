// End-to-end: `aiython --explain [--json] PATH` through the built CLI (SPEC §3.4): runs nothing,
// calls no model, writes nothing next to the program.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { aiython, cleanEnv, CLI, ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

function copyToTemp(source: string, name = path.basename(source)): { dir: string; file: string } {
  return { dir: tempProject({ [name]: { copy: source } }, { prefix: "aiython-explain-" }), file: name };
}

const snapshot = (dir: string) => fs.readdirSync(dir, { recursive: true }).map(String).sort();

test("--explain --json prints the §3.4 shape for the tickets example and writes nothing", async () => {
  const { dir, file } = copyToTemp(path.join(ROOT, "examples", "tickets.py"));
  const before = snapshot(dir);
  const result = await aiython(["--explain", "--json", file], { cwd: dir, env: cleanEnv({ AIYTHON_MODEL: "openai/gpt-4.1-mini", OPENAI_API_KEY: "sk-explain-secret" }) });
  assert.equal(result.exitCode, 0, result.stderr);
  assert.deepEqual(snapshot(dir), before, "nothing written next to the program");
  const shown = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(shown), ["file", "python", "config", "blocks", "checkpoints"]);
  assert.equal(shown.file, file);
  assert.match(shown.python, /^3\.\d+\.\d+$/);
  assert.equal(shown.config.default_profile, "default");
  assert.equal(shown.config.profiles.default.model, "openai/gpt-4.1-mini");
  assert.equal(shown.config.profiles.default.credential_configured, true);
  assert.equal(shown.blocks.length, 2);
  assert.deepEqual(shown.blocks[0], {
    id: "tickets.py:1",
    statement: "classify this ticket",
    kind: "expression",
    span: { line: 14, column: 38, end_line: 14, end_column: 58 },
    target: "kind",
    output_type: "Literal['bug', 'billing']",
    requires_result: true,
    directive: { profile: null, prompts: [], capability: null, provider: null },
  });
  assert.deepEqual(Object.keys(shown.checkpoints[0]), ["id", "span", "statement", "target", "retry_allowed"]);
  const queues = shown.checkpoints.find((c: { target: string }) => c.target === "queues");
  assert.equal(queues.statement, 'queues = {"bug": [], "billing": []}');
  assert.equal(queues.retry_allowed, true);
  const loop = shown.checkpoints.find((c: { statement: string }) => c.statement.startsWith("for ticket"));
  assert.equal(loop.retry_allowed, false);
  assert.ok(!result.stdout.includes("sk-explain-secret"));
});

test("--explain for people: blocks highlighted with kind, target and type, and a summary line", async () => {
  const result = await aiython(["--explain", path.join(ROOT, "examples", "tickets.py")], { env: cleanEnv({ NO_COLOR: "1" }) });
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /block 1: expression, target kind, type Literal\['bug', 'billing'\]/);
  assert.match(result.stdout, /\^{20}/);
  assert.match(result.stdout, /2 AI blocks, \d+ checkpoints \(● marks where each starts\)\n$/);
  assert.doesNotMatch(result.stdout, /\x1b\[/, "no colour on a pipe");
});

test("--explain on a terminal: colour, unless NO_COLOR is set (which beats FORCE_COLOR)", { skip: !fs.existsSync("/usr/bin/script") && "needs script(1)" }, async () => {
  const tickets = path.join(ROOT, "examples", "tickets.py");
  const onTerminal = async (extra: Record<string, string>) =>
    String((await execa("script", ["-qec", `${CLI} --explain ${tickets}`, "/dev/null"], { env: cleanEnv({ TERM: "xterm-256color", ...extra }), extendEnv: false })).stdout);
  assert.match(await onTerminal({}), /\x1b\[/, "colour on a terminal");
  for (const extra of [{ NO_COLOR: "1" }, { NO_COLOR: "1", FORCE_COLOR: "1" }] as Record<string, string>[]) {
    const screen = await onTerminal(extra);
    assert.doesNotMatch(screen, /\x1b\[/, JSON.stringify(extra));
    assert.match(screen, /\^{20}/, "blocks underlined with carets instead");
  }
});

test("--explain of a valid file says it has no blocks", async () => {
  const result = await aiython(["--explain", path.join(ROOT, "examples", "hello.py")], { env: cleanEnv() });
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /no AI blocks/i);
});

test("a malformed directive is a file:line error before anything runs (exit 78)", async () => {
  const dir = tempProject({ "bad.py": 'print("ran")\n# aiython: colour="blue"\nx = pick a colour\n' }, { git: false, prefix: "aiython-directive-" });
  const withModel = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
  for (const [args, env] of [
    [["--explain", "bad.py"], cleanEnv()],
    [["--no-journal", "bad.py"], withModel],
  ] as const) {
    const result = await aiython([...args], { cwd: dir, env });
    assert.equal(result.exitCode, 78, result.stderr);
    assert.equal(result.stdout, "", "the program did not run");
    assert.match(result.stderr, /^aiython: bad\.py:2: /);
  }
  // Without a model the program is refused as python3 refuses it (SPEC §4.3): its SyntaxError first.
  const plain = await aiython(["bad.py"], { cwd: dir, env: cleanEnv() });
  assert.equal(plain.exitCode, 1);
  assert.equal(plain.stdout, "");
  assert.match(plain.stderr, /^ {2}File ".*bad\.py", line 3\n/);
});

test("--explain needs a readable file", async () => {
  const result = await aiython(["--explain", "missing.py"], { env: cleanEnv() });
  assert.equal(result.exitCode, 2);
  assert.match(result.stderr, /^aiython: can't open file '.*missing.py'/);
});
