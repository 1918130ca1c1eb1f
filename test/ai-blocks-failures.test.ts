// End-to-end: AI blocks at run time that fail or must wait (SPEC §4.3, §5, §6). The built CLI runs
// fixture programs with natural-language lines against the loopback OpenAI-compatible server: the
// AIError a block ends with (type never satisfied, invalid or empty responses, max_rounds, the
// deadline, an error outcome, no model, the server down, 401, a malformed body) and the retries
// after 429 and 500.

import assert from "node:assert/strict";
import { test } from "node:test";
import { finishCall, LOOPBACK_SECRET, toolCall } from "./support/loopback-model.js";
import { assertAIError, runFixture } from "./support/ai-fixture-run.js";

test("a model that never satisfies the type ends with AIError after a bounded number of requests", async () => {
  const run = await runFixture("one_block.py", { responder: () => finishCall({ kind: "literal", value: "medium" }) });
  assertAIError(run, /AIError: .*/);
  assert.match(run.stderr, /line 4, in <module>\n {4}severity: Literal\["low", "high"\] = rate the severity of a crash on login/);
  assert.equal(run.requests.length, 2, "the same failing call twice ends the invocation");
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

test("no model configured: the program does not start; python3's SyntaxError, then what is not Python (SPEC §4.3)", async () => {
  const run = await runFixture("one_block.py", null);
  assert.equal(run.exitCode, 1);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /^ {2}File ".*one_block\.py", line 4\n.*\n.*\nSyntaxError: invalid syntax\n/);
  assert.match(run.stderr, /\naiython: one_block\.py: 1 span is not Python \(line 4\); fix it, or configure a model \(aiython setup\) to run it as an AI block\n$/);
});

test("no model configured: an unreached block does not run either, as under python3", async () => {
  const run = await runFixture("unreached.py", null);
  assert.equal(run.exitCode, 1);
  assert.equal(run.stdout, "", "nothing ran");
  assert.match(run.stderr, /SyntaxError: invalid syntax\naiython: unreached\.py: 1 span is not Python \(line 5\)/);
});

test("a route that needs a key and has none: nothing is sent; the AIError names the variable and the setup command", async () => {
  const toml = 'version = 3\nmodel = { model = "openai/gpt-4.1-mini", api_base = "$URL", api_key_env = "MY_MISSING_KEY" }\n';
  const run = await runFixture("one_block.py", { script: [finishCall({ kind: "literal", value: "high" })] }, { toml });
  assertAIError(
    run,
    /AIError: openai\/gpt-4\.1-mini needs an API key and MY_MISSING_KEY is not set \(looked in the environment, \.aiython\/credentials\.env\); nothing was sent\. Set MY_MISSING_KEY, or store the key with: aiython setup --set-key --model openai\/gpt-4\.1-mini\n/,
  );
  assert.equal(run.requests.length, 0, "no request was sent");
  // The environment form, at OpenAI's own base: the same, before any connection is tried.
  const cloud = await runFixture("one_block.py", null, { env: { AIYTHON_MODEL: "openai/gpt-4.1-mini", OPENAI_API_KEY: "" } });
  assertAIError(cloud, /AIError: openai\/gpt-4\.1-mini needs an API key and OPENAI_API_KEY is not set/);
  assert.ok(cloud.seconds < 10);
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
