// End-to-end: AI blocks at run time (SPEC §4.3, §5, §6). The built CLI runs fixture programs with
// natural-language lines against the loopback OpenAI-compatible server, configured the way a
// user would (AIYTHON_MODEL + OPENAI_BASE_URL, or aiython.toml).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { aiython, cleanEnv, ROOT } from "./support/run-cli.js";
import {
  finishCall,
  LOOPBACK_SECRET,
  startLoopbackModel,
  toolCall,
  type RecordedRequest,
  type Responder,
  type ScriptedReply,
} from "./support/loopback-model.js";
import { standInReply } from "../examples/demo/stand-in-model.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "ai");
const KEY = "sk-test-key-NEVER-PRINTED-93ab";

interface Run {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  requests: RecordedRequest[];
  seconds: number;
}

/** Copies a fixture into a fresh project folder (its own .git, optional aiython.toml) and runs it. */
async function runFixture(
  fixture: string,
  model: { script?: ScriptedReply[]; responder?: Responder } | null,
  options: { toml?: string; env?: Record<string, string>; args?: string[] } = {},
): Promise<Run> {
  const dir = tempProject({ [fixture]: { copy: path.join(FIXTURES, fixture) } }, { prefix: "aiython-ai-" });
  const server = model ? await startLoopbackModel(model) : null;
  const env: Record<string, string> = { OPENAI_API_KEY: KEY, ...(options.env ?? {}) };
  if (options.toml !== undefined) {
    fs.writeFileSync(path.join(dir, "aiython.toml"), options.toml.replaceAll("$URL", server?.url ?? "http://127.0.0.1:9/v1"));
  } else if (server) {
    env.AIYTHON_MODEL ??= "test-model";
    env.OPENAI_BASE_URL ??= server.url;
  }
  const started = Date.now();
  try {
    const result = await aiython([fixture, ...(options.args ?? [])], { cwd: dir, env: cleanEnv(env) });
    return { ...result, requests: server?.requests.filter((r) => r.path.endsWith("/chat/completions")) ?? [], seconds: (Date.now() - started) / 1000 };
  } finally {
    await server?.close();
  }
}

const stable = (request: RecordedRequest) => JSON.parse(request.body.messages[1].content);
const live = (request: RecordedRequest) => JSON.parse(request.body.messages[2].content);
const toolMessages = (request: RecordedRequest) =>
  request.body.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => JSON.parse(m.content));

function assertAIError(run: Run, pattern: RegExp) {
  assert.equal(run.exitCode, 1, `exit 1, stderr: ${run.stderr}`);
  assert.match(run.stderr, /Traceback \(most recent call last\):/);
  assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /aiython_bridge/);
  assert.ok(!run.stderr.includes(KEY) && !run.stdout.includes(KEY), "the API key is never printed");
}

test("the tickets loop: one request per block, values inlined, typed Literal results", async () => {
  const run = await runFixture("tickets.py", { responder: (req) => standInReply(req.body) });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(
    run.stdout,
    "{'bug': ['The app crashes on login', 'Error 500 on save'], 'billing': ['I was charged twice', 'Refund please']}\n" +
      "2 billing tickets and 2 bug reports were routed.\n",
  );
  assert.equal(run.requests.length, 5, "four classifications and one summary, one request each");
  const first = run.requests[0];
  assert.equal(stable(first).statement, "classify this ticket");
  assert.equal(stable(first).output_type, "Literal['bug', 'billing']");
  assert.deepEqual(stable(first).output_schema.enum, ["bug", "billing"]);
  assert.equal(live(first).related_objects.find((o: { name: string }) => o.name === "ticket").value, "I was charged twice");
  assert.equal(first.body.tool_choice, "required");
  assert.ok(Math.max(...run.requests.map((r) => Buffer.byteLength(r.rawBody))) < 6144, "requests stay under 6 KB");
  // One client for the route serves the run, over one kept-alive connection (SPEC §12).
  assert.deepEqual(new Set(run.requests.map((r) => r.connection)), new Set([1]), "every block's request on the run's one connection");
});

test("the demo's stand-in model answers the README's console line, and says what it does not know", () => {
  const body = (statement: string) => ({ messages: [{ role: "system", content: "" }, { role: "user", content: JSON.stringify({ mode: "syntax", statement }) }] });
  assert.deepEqual(standInReply(body("pick a number between 1 and 10")).toolCalls, [{ name: "finish", arguments: { outcome: { kind: "literal", value: 7 } } }]);
  assert.deepEqual(standInReply(body("pick a number between 10 and -2")).toolCalls?.[0].arguments, { outcome: { kind: "literal", value: 6 } });
  const unknown = standInReply(body("write a poem")).toolCalls?.[0].arguments as { outcome: { kind: string; reason: string } };
  assert.equal(unknown.outcome.kind, "error");
  assert.match(unknown.outcome.reason, /only knows examples\/tickets\.py and `pick a number between A and B`/);
});

test("the tickets loop with the value read through get_binding", async () => {
  const responder: Responder = (req) => {
    const statement = stable(req).statement as string;
    const results = toolMessages(req);
    if (statement.startsWith("summarize")) return finishCall({ kind: "literal", value: "done" });
    if (results.length === 0) return { toolCalls: [toolCall("get_binding", { name: "ticket", result_id: "t" })] };
    const text = String(results[0].result.value);
    return finishCall({ kind: "literal", value: /charg|refund/i.test(text) ? "billing" : "bug" });
  };
  const run = await runFixture("tickets.py", { responder });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(run.stdout, /'billing': \['I was charged twice', 'Refund please'\]/);
  assert.equal(run.requests.length, 9);
});

test("a typed result that violates the annotation is repaired", async () => {
  const run = await runFixture("one_block.py", {
    script: [finishCall({ kind: "literal", value: "medium" }), finishCall({ kind: "literal", value: "high" })],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "high str\n");
  const feedback = toolMessages(run.requests[1])[0];
  assert.equal(feedback.status, "error");
  assert.match(feedback.message, /severity: expected Literal\['low', 'high'\], got str 'medium'/);
});

test("a model that never satisfies the type ends with AIError after a bounded number of requests", async () => {
  const run = await runFixture("one_block.py", { responder: () => finishCall({ kind: "literal", value: "medium" }) });
  assertAIError(run, /AIError: .*/);
  assert.match(run.stderr, /line 4, in <module>\n    severity: Literal\["low", "high"\] = rate the severity of a crash on login/);
  assert.equal(run.requests.length, 2, "the same failing call twice ends the invocation");
});

test("evaluate then finish(reference) returns the same object", async () => {
  const run = await runFixture("same_object.py", {
    script: [{ toolCalls: [toolCall("evaluate", { code: "items", result_id: "it" }), toolCall("finish", { outcome: { kind: "reference", id: "it" } })] }],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "True [3, 1, 2]\n");
  assert.equal(run.requests.length, 1);
});

test("a statement block: execute then finish(none)", async () => {
  const run = await runFixture("statement.py", {
    script: [{ toolCalls: [toolCall("execute", { code: "items.append(3)" }), toolCall("finish", { outcome: { kind: "none" } })] }],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "[1, 2, 3]\n");
  assert.equal(stable(run.requests[0]).requires_result, false);
});

test("an invalid batch runs nothing: the execute before a bad terminal has no effect", async () => {
  const run = await runFixture("statement.py", {
    script: [
      { toolCalls: [toolCall("execute", { code: "items.append(99)" }), toolCall("finish", { outcome: { kind: "reference", id: "nothing" } })] },
      finishCall({ kind: "none" }),
    ],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "[1, 2]\n");
  const [skipped, failing] = toolMessages(run.requests[1]);
  assert.deepEqual(skipped, { status: "skipped", message: "batch rejected; no tool ran" });
  assert.equal(failing.status, "error");
});

test("two invalid batches in a row fail the block", async () => {
  const bad = { toolCalls: [toolCall("teleport", { where: "away" })] };
  const run = await runFixture("one_block.py", { script: [bad, bad] });
  assertAIError(run, /AIError: .*invalid/i);
  assert.equal(run.requests.length, 2);
});

test("two empty responses in a row fail the block", async () => {
  const run = await runFixture("one_block.py", { script: [{ content: "I think high" }, { content: "high" }] });
  assertAIError(run, /AIError: .*no tool call/i);
  assert.equal(run.requests.length, 2);
});

test("max_rounds bounds the model calls of one block", async () => {
  const run = await runFixture(
    "one_block.py",
    { responder: (_req, i) => ({ toolCalls: [toolCall("evaluate", { code: `${i} + 1` })] }) },
    { toml: 'version = 3\nmax_rounds = 3\n\n[model]\nmodel = "test-model"\napi_base = "$URL"\n' },
  );
  assertAIError(run, /AIError: .*3/);
  assert.equal(run.requests.length, 3);
});

test("the per-invocation deadline ends a slow model", async () => {
  const run = await runFixture(
    "one_block.py",
    { responder: () => ({ ...finishCall({ kind: "literal", value: "high" }), delayMs: 10_000 }) },
    { toml: 'version = 3\ntimeout = 1\n\n[model]\nmodel = "test-model"\napi_base = "$URL"\n' },
  );
  assertAIError(run, /AIError: .*timeout/i);
  assert.ok(run.seconds < 8, `ended by the deadline (${run.seconds}s)`);
});

test("an error outcome raises AIError with the model's reason", async () => {
  const run = await runFixture("one_block.py", { script: [finishCall({ kind: "error", reason: "not enough information about the crash" })] });
  assertAIError(run, /AIError: not enough information about the crash/);
});

test("a block in a function called twice is two invocations with their own frames", async () => {
  const responder: Responder = (req) => {
    const name = live(req).related_objects.find((o: { name: string }) => o.name === "name").value;
    return finishCall({ kind: "literal", value: `Hello, ${name}!` });
  };
  const run = await runFixture("in_function.py", { responder });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "Hello, Ana!\nHello, Bo!\n");
  assert.equal(stable(run.requests[0]).output_type, "str", "the return annotation is the expected type");
});

test("a block in a coroutine lets other tasks run while the model answers", async () => {
  const run = await runFixture("in_coroutine.py", { script: [{ ...finishCall({ kind: "literal", value: 7 }), delayMs: 400 }] });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(run.stdout, /'answer 7'/);
  assert.match(run.stdout, /ticks before the answer: 5/);
});

test("a float target keeps 3.0 a float", async () => {
  const run = await runFixture("float_value.py", { script: [{ toolCalls: [toolCall("finish", '{"outcome":{"kind":"literal","value":3.0}}')] }] });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "3.0\n");
});

test("no model configured: a reached block raises AIError at its line", async () => {
  const run = await runFixture("one_block.py", null);
  assertAIError(run, /AIError: no model configured \(set AIYTHON_MODEL or run 'aiython setup'\)/);
  assert.match(run.stderr, /File ".*one_block.py", line 4, in <module>/);
});

test("no model configured: an unreached block costs nothing", async () => {
  const run = await runFixture("unreached.py", null);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "done without a model\n");
  assert.equal(run.stderr, "");
});

test("the model server is down: AIError naming the connection problem", async () => {
  const run = await runFixture("one_block.py", null, { env: { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });
  assertAIError(run, /AIError: .*127\.0\.0\.1:9/);
});

test("HTTP 401: AIError that names the key problem, and neither key nor provider body is printed", async () => {
  const run = await runFixture("one_block.py", { script: [{ status: 401 }] });
  assertAIError(run, /AIError: .*401/);
  assert.ok(!run.stderr.includes(LOOPBACK_SECRET));
  assert.equal(run.requests.length, 1, "401 is not retried");
});

test("execute_code denied: evaluate/execute are not offered, a literal still works", async () => {
  const run = await runFixture(
    "one_block.py",
    { script: [finishCall({ kind: "literal", value: "low" })] },
    { toml: 'version = 3\npermissions = ["network"]\n\n[model]\nmodel = "test-model"\napi_base = "$URL"\n' },
  );
  assert.equal(run.exitCode, 0, run.stderr);
  const offered = run.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name);
  assert.ok(!offered.includes("evaluate") && !offered.includes("execute"), `offered: ${offered}`);
  assert.ok(offered.includes("finish"));
});

test("HTTP 429 with Retry-After is waited out and retried within the deadline", async () => {
  const run = await runFixture("one_block.py", {
    script: [{ status: 429, headers: { "retry-after": "1" } }, finishCall({ kind: "literal", value: "low" })],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "low str\n");
  assert.equal(run.requests.length, 2);
  assert.ok(run.requests[1].receivedAt - run.requests[0].receivedAt >= 900, "waited for Retry-After");
});

test("HTTP 500 is retried", async () => {
  const run = await runFixture("one_block.py", { script: [{ status: 500 }, finishCall({ kind: "literal", value: "high" })] });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "high str\n");
  assert.equal(run.requests.length, 2);
});

test("a malformed response body ends the block with AIError, no provider text shown", async () => {
  const run = await runFixture("one_block.py", { script: [{ rawBody: `{"choices": [ ${LOOPBACK_SECRET}` }] });
  assertAIError(run, /AIError: .*/);
  assert.ok(!run.stderr.includes(LOOPBACK_SECRET));
});

test("non-JSON tool arguments are an invalid batch the model is told about, then repaired", async () => {
  const run = await runFixture("one_block.py", {
    script: [{ toolCalls: [toolCall("finish", "{outcome: high}")] }, finishCall({ kind: "literal", value: "high" })],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "high str\n");
  const [feedback] = toolMessages(run.requests[1]);
  assert.equal(feedback.status, "error");
  assert.match(feedback.message, /JSON/);
});
