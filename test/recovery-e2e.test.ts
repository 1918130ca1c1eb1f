// End-to-end: recovery checkpoints through the built CLI and the loopback model (SPEC §4.2, §5
// `recover`). The bridge's own unit tests (bridge-py/tests/test_recovery.py) cover the many
// Python shapes with an in-process decision source; these prove the whole path a user runs.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { aiython, cleanEnv, python, ROOT } from "./support/run-cli.js";
import { startLoopbackModel, toolCall, type RecordedRequest, type ScriptedReply } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "recovery");

function project(files: string[]): string {
  return tempProject(Object.fromEntries(files.map((file) => [file, { copy: path.join(FIXTURES, file) }])), { prefix: "aiython-recovery-" });
}

async function run(files: string[], script: ScriptedReply[] | null, options: { config?: string; args?: string[] } = {}) {
  const dir = project(files);
  const server = script ? await startLoopbackModel({ script }) : null;
  // An aiython.toml holds the model itself (the environment's is for runs without one).
  if (options.config) fs.writeFileSync(path.join(dir, "aiython.toml"), `version = 3\nmodel = { model = "test-model", api_base = "${server?.url}" }\n${options.config}`);
  try {
    const env = server ? cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url }) : cleanEnv();
    const result = await aiython(["--no-journal", ...(options.args ?? []), files[0]], { cwd: dir, env });
    const requests = server?.requests.filter((r) => r.path.endsWith("/chat/completions")) ?? [];
    return { ...result, requests, dir };
  } finally {
    await server?.close();
  }
}

const recover = (args: object, extra: ScriptedReply["toolCalls"] = []): ScriptedReply => ({ toolCalls: [...extra, toolCall("recover", args)] });
const stable = (r: RecordedRequest) => JSON.parse(r.body.messages[1].content);
const live = (r: RecordedRequest) => JSON.parse(r.body.messages[2].content);

test("a NameError is completed with a replacement value of the target's type", async () => {
  const result = await run(["name_error.py"], [recover({ action: "complete", outcome: { kind: "literal", value: 0.25 } })]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "rate 0.25\n");
  assert.equal(result.requests.length, 1);
  const request = result.requests[0];
  assert.equal(stable(request).mode, "recovery");
  assert.equal(live(request).recovery?.exception_type ?? stable(request).recovery?.exception_type, "NameError");
  const tools = request.body.tools.map((t: { function: { name: string } }) => t.function.name);
  assert.ok(tools.includes("recover") && !tools.includes("finish"));
});

test("a loop repaired by execute + retry on each of 3 iterations appends exactly 3 times", async () => {
  const repair = recover({ action: "retry" }, [toolCall("execute", { code: "ticket.title = ticket.text" })]);
  const result = await run(["loop_retry.py"], [repair, repair, repair]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "A\nB\nC\nappended 3 times\n");
  assert.equal(result.requests.length, 3);
  assert.equal(result.stderr, "aiython: loop_retry.py:11: AttributeError recovered: retrying the statement\n".repeat(3));
});

// SPEC §4.2: recovery is never silent.
const explained = (args: object) => recover({ ...args, explanation: "x is not\na number" });
const LOOP_NOTICE =
  'aiython: with_in_loop.py:10: ValueError recovered: completed, skipping the rest of the for loop of line 8, its remaining iterations included (model: "x is not a number")\n';

test("complete at a loop enclosing a with body skips the rest of the loop, and says so before the program writes again", async () => {
  const result = await run(["with_in_loop.py"], [explained({ action: "complete" })]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "[1]\n");
  assert.equal(result.stderr, `${LOOP_NOTICE}after the loop\n`);
  // The model is told before it decides what completing would skip.
  assert.equal(live(result.requests[0]).recovery.complete_skips, "the rest of the for loop of line 8, its remaining iterations included");
  assert.equal(live(result.requests[0]).recovery.line, 10);
});

test("a completed value is said with its target; --stats counts the decisions", async () => {
  const result = await run(["name_error.py"], [recover({ action: "complete", outcome: { kind: "literal", value: 0.25 } })], { args: ["--stats=json"] });
  assert.equal(result.exitCode, 0, result.stderr);
  const [notice, stats] = result.stderr.trimEnd().split("\n");
  assert.equal(notice, "aiython: name_error.py:2: NameError recovered: completed with a value for rate");
  assert.deepEqual(JSON.parse(stats.slice("aiython stats: ".length)).run.recovered, { completed: 1, retried: 0 });
});

test('recovery_notice = "summary" says it once at the end; "off" says nothing', async () => {
  const summary = await run(["with_in_loop.py"], [explained({ action: "complete" })], { config: 'recovery_notice = "summary"\n' });
  assert.equal(summary.exitCode, 0, summary.stderr);
  assert.equal(
    summary.stderr,
    "after the loop\naiython: recovery changed the program's course once: with_in_loop.py:10: ValueError recovered: completed, skipping the rest of the for loop of line 8, its remaining iterations included\n",
  );
  const off = await run(["with_in_loop.py"], [explained({ action: "complete" })], { config: 'recovery_notice = "off"\n' });
  assert.equal(off.exitCode, 0, off.stderr);
  assert.equal(off.stderr, "after the loop\n");
  assert.equal(off.stdout, "[1]\n");
});

test("reraise: the original exception propagates with the model's explanation as a note", async () => {
  const result = await run(["reraise.py"], [recover({ action: "reraise", explanation: "the key 'b' is missing from the input; add it" })]);
  assert.equal(result.exitCode, 1);
  assert.doesNotMatch(result.stderr, /^aiython: \S+:\d+: .* recovered:/m, "a re-raise changes nothing, so no notice");
  assert.match(result.stderr, /KeyError: 'b'\n.*the key 'b' is missing from the input; add it/s);
  assert.doesNotMatch(result.stderr, /aiython_bridge/);
});

test("a user try/except handles the error and the model is never called", async () => {
  const result = await run(["user_handles.py"], []);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "value -1\n");
  assert.equal(result.requests.length, 0);
});

test("attempt limit: two consultations, then the original exception", async () => {
  const retry = recover({ action: "retry" });
  const result = await run(["reraise.py"], [retry, retry, retry]);
  assert.equal(result.exitCode, 1);
  assert.match(result.stderr, /KeyError: 'b'/);
  assert.equal(result.requests.length, 2, "exactly two consultations");
});

test("recovery inside an imported project module", async () => {
  const result = await run(["uses_module.py", "helpers.py"], [recover({ action: "retry" }, [toolCall("execute", { code: "import builtins; builtins.PREFIX = 'item-'" })])]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "item-3\n");
  assert.equal(result.requests.length, 1);
  assert.match(stable(result.requests[0]).statement, /text = PREFIX \+ str\(n\)/);
});

test("a recovery request lists the frame's values, and none of its modules, functions or classes", async () => {
  const result = await run(["module_names.py"], [recover({ action: "complete", outcome: { kind: "literal", value: 0.5 } })]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "0.5 2 3 Report json OrderedDict\n");
  const { related_objects: related, frame_objects: listed } = live(result.requests[0]);
  assert.deepEqual(
    related.map((o: { name: string }) => o.name),
    ["limit"],
  );
  assert.deepEqual(
    listed.map((o: { name: string }) => o.name),
    ["labels"],
  );
});

test("a route that needs a key and has none: nothing is sent, one line says why, then python3's traceback", async () => {
  const dir = project(["reraise.py"]);
  const server = await startLoopbackModel({ script: [recover({ action: "complete" })] });
  try {
    fs.writeFileSync(path.join(dir, "aiython.toml"), `version = 3\nmodel = { model = "openai/gpt-4.1-mini", api_base = "${server.url}", api_key_env = "MY_MISSING_KEY" }\n`);
    const [ours, theirs] = await Promise.all([aiython(["--no-journal", "reraise.py"], { cwd: dir, env: cleanEnv() }), python(["reraise.py"], { cwd: dir, env: cleanEnv() })]);
    assert.equal(ours.exitCode, theirs.exitCode);
    assert.equal(
      ours.stderr,
      "aiython: recovery could not ask the model: openai/gpt-4.1-mini needs an API key and MY_MISSING_KEY is not set (looked in the environment, .aiython/credentials.env); nothing was sent. Set MY_MISSING_KEY, or store the key with: aiython setup --set-key --model openai/gpt-4.1-mini\n" +
        theirs.stderr,
    );
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

test("unconfigured: an uncaught exception is exactly python3's", async () => {
  const dir = project(["reraise.py"]);
  const [ours, theirs] = await Promise.all([aiython(["reraise.py"], { cwd: dir, env: cleanEnv() }), python(["reraise.py"], { cwd: dir, env: cleanEnv() })]);
  assert.equal(ours.stderr, theirs.stderr);
  assert.equal(ours.stdout, theirs.stdout);
  assert.equal(ours.exitCode, theirs.exitCode);
});

test("configured but the model is down: exactly python3's output; the reason is in the trace", async () => {
  const dir = project(["reraise.py"]);
  const env = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
  const [ours, theirs] = await Promise.all([aiython(["--no-journal", "--trace", "trace.jsonl", "reraise.py"], { cwd: dir, env }), python(["reraise.py"], { cwd: dir })]);
  assert.equal(ours.stderr, theirs.stderr);
  assert.equal(ours.stdout, theirs.stdout);
  assert.equal(ours.exitCode, 1);
  assert.match(fs.readFileSync(path.join(dir, "trace.jsonl"), "utf8"), /"type":"outcome".*127\.0\.0\.1:9/);
});
