// End-to-end: one checkpoint rule (SPEC §4.2) through the built CLI. The bridge selects the
// checkpoints of the program as it runs — the source itself, or the rewritten program of a
// source with AI blocks, its positions mapped back to the user's lines — and `--explain` shows
// what it selects. So `--explain` names the checkpoints a run consults, with the same
// statements, spans and retry rule, also after a block whose call is wider than its text, where
// the columns of the rewritten program move.

import assert from "node:assert/strict";
import { test } from "node:test";
import { buildBigProgram } from "../bench/frontend/big-program.js";
import { CAPABILITY_NAMES } from "../src/capabilities/names.js";
import { analyzeSource } from "../src/frontend/index.js";
import { startPythonOracle } from "./support/python-oracle.js";
import { aiython, cleanEnv } from "./support/run-cli.js";
import { startLoopbackModel, toolCall, type RecordedRequest, type ScriptedReply } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

interface Shown {
  id: string;
  span: { line: number; column: number; end_line: number; end_column: number };
  statement: string;
  target: string | null;
  retry_allowed: boolean;
}

// `how many` (8 characters) renders as `__aiython__.block(1)` (20): what follows it on line 2 moves.
const AFTER_A_BLOCK = '# a statement after a block on its line\ncount = how many; total = int("seven")\nprint(count, total)\n';

async function explained(dir: string, file: string): Promise<Shown[]> {
  const result = await aiython(["--explain", "--json", file], { cwd: dir, env: cleanEnv() });
  assert.equal(result.exitCode, 0, result.stderr);
  return JSON.parse(result.stdout).checkpoints;
}

async function run(dir: string, file: string, script: ScriptedReply[]) {
  const server = await startLoopbackModel({ script });
  try {
    const result = await aiython(["--no-journal", file], { cwd: dir, env: cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url }) });
    return { ...result, requests: server.requests.filter((r) => r.path.endsWith("/chat/completions")) };
  } finally {
    await server.close();
  }
}

const stable = (r: RecordedRequest) => JSON.parse(r.body.messages[1].content);
const live = (r: RecordedRequest) => JSON.parse(r.body.messages[2].content);
const lineText = (source: string, span: Shown["span"]) => source.split("\n")[span.line - 1].slice(span.column, span.end_column);

test("--explain of a source with AI blocks: checkpoints where the source has them, after a block too", async () => {
  const dir = tempProject({ "prog.py": AFTER_A_BLOCK }, { prefix: "aiython-checkpoints-" });
  const shown = await explained(dir, "prog.py");
  assert.deepEqual(
    shown.map((c) => [c.id, c.statement, c.span.line, c.span.column, c.span.end_column, c.target]),
    [
      ["prog.py:c1", "count = how many", 2, 0, 16, "count"],
      ["prog.py:c2", 'total = int("seven")', 2, 18, 38, "total"],
      ["prog.py:c3", "print(count, total)", 3, 0, 19, null],
    ],
  );
  for (const c of shown) assert.equal(lineText(AFTER_A_BLOCK, c.span), c.statement, c.id);
});

test("a statement after a block on its line is a checkpoint of the run, consulted as --explain shows it", async () => {
  const dir = tempProject({ "prog.py": AFTER_A_BLOCK }, { prefix: "aiython-checkpoints-" });
  const [, shown] = await explained(dir, "prog.py");
  const result = await run(dir, "prog.py", [
    { toolCalls: [toolCall("finish", { outcome: { kind: "literal", value: 3 } })] },
    { toolCalls: [toolCall("recover", { action: "complete", outcome: { kind: "literal", value: 7 } })] },
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "3 7\n");
  assert.equal(result.requests.length, 2);
  const request = stable(result.requests[1]);
  assert.equal(request.mode, "recovery");
  assert.equal(request.statement, shown.statement);
  const { line, column, end_line, end_column } = request.location;
  assert.deepEqual({ line, column, end_line, end_column }, shown.span);
});

test("a top-level raise: --explain shows the retry rule a run applies", async () => {
  const source = 'print("start")\nraise ValueError("stop here")\n';
  const dir = tempProject({ "stop.py": source }, { prefix: "aiython-checkpoints-" });
  const shown = await explained(dir, "stop.py");
  assert.deepEqual(
    shown.map((c) => [c.statement, c.retry_allowed]),
    [
      ['print("start")', true],
      ['raise ValueError("stop here")', false],
    ],
  );
  const result = await run(dir, "stop.py", [{ toolCalls: [toolCall("recover", { action: "reraise", explanation: "the program stops itself" })] }]);
  assert.equal(result.exitCode, 1);
  assert.equal(result.requests.length, 1);
  assert.equal(stable(result.requests[0]).statement, shown[1].statement);
  assert.equal(live(result.requests[0]).recovery.retry_allowed, shown[1].retry_allowed);
});

test("--explain of a file of many windows, blocks in some: what the bridge lists of the plan without listing ahead", async () => {
  // --explain has the bridge list the windows that compile as they stand while the frontend still
  // plans (recovery/listing.py, Ahead); the answer is the plan's listing all the same.
  const { source } = buildBigProgram(150_000);
  const dir = tempProject({ "big.py": source }, { prefix: "aiython-checkpoints-" });
  const shown = await explained(dir, "big.py");
  const oracle = startPythonOracle();
  try {
    const plan = await analyzeSource({ source, filename: `${dir}/big.py`, displayName: "big.py", oracle, capabilityNames: CAPABILITY_NAMES });
    assert.ok(plan.blocks.length > 3);
    assert.deepEqual(shown, await oracle.checkpoints(source, plan));
  } finally {
    await oracle.close();
  }
});
