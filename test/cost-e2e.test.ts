// Counting and cost end to end (SPEC §11, §13) through the built CLI and the loopback model: a
// request answered HTTP 500 and retried N times is N+1 model calls (in --stats, the trace, the
// journal and `runs show` alike), so is each request of a type repair or a recovery consultation,
// request bytes are the bodies really sent, a replayed answer is
// counted as replayed and sends nothing, and with `price` set each request is priced by its
// usage — cached prompt tokens at cached_input — while a route without a price says so.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { finishCall, startLoopbackModel, toolCall, type LoopbackModel, type ScriptedReply } from "./support/loopback-model.js";
import { FAKE_KEY, runIn } from "./support/observe-e2e.js";
import { cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const PROGRAM = 'ticket = "I was charged twice"\nkind = classify this ticket\nprint(kind)\n';
const RETRY_NOW = { status: 500, headers: { "retry-after-ms": "0" } };
const USAGE = { prompt_tokens: 1200, completion_tokens: 8, total_tokens: 1208, prompt_tokens_details: { cached_tokens: 1024 } };

function project(model: LoopbackModel, price = ""): string {
  const toml = `version = 3\nmodel = { model = "loop", api_base = "${model.url}"${price ? `, price = ${price}` : ""} }\n`;
  return tempProject({ "main.py": PROGRAM, "aiython.toml": toml });
}

const env = () => cleanEnv({ OPENAI_API_KEY: FAKE_KEY });
const chatBodies = (model: LoopbackModel) => model.requests.filter((r) => r.path.endsWith("/chat/completions")).map((r) => r.rawBody);

function statsOf(stderr: string) {
  const line = stderr.split("\n").find((l) => l.startsWith("aiython stats: {"));
  assert.ok(line, stderr);
  return JSON.parse(line.slice("aiython stats: ".length));
}

test("a 500 retried 3 times is 4 model calls in --stats, the trace, the journal and runs show", async () => {
  const script: ScriptedReply[] = [RETRY_NOW, RETRY_NOW, RETRY_NOW, { ...finishCall({ kind: "literal", value: "billing" }), usage: USAGE }];
  const model = await startLoopbackModel({ script });
  try {
    const root = project(model);
    const ran = await runIn(root, ["--stats=json", "--trace", "trace.jsonl", "main.py"], env());
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, "billing\n");
    const bodies = chatBodies(model);
    assert.equal(bodies.length, 4);
    const [inv] = statsOf(ran.stderr).invocations;
    assert.equal(inv.model_calls, 4);
    assert.equal(
      inv.request_bytes,
      bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0),
      "every body sent, as sent",
    );
    assert.deepEqual(inv.token_usage, { prompt_tokens: 1200, completion_tokens: 8, total_tokens: 1208, cached_tokens: 1024 });

    const events = fs
      .readFileSync(path.join(root, "trace.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const attempts = events.filter((e) => e.type === "model_attempt");
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status, a.outcome]),
      [
        [1, 500, "HTTP 500, code server_error"],
        [2, 500, "HTTP 500, code server_error"],
        [3, 500, "HTTP 500, code server_error"],
        [4, 200, "answer"],
      ],
    );
    assert.equal(events.filter((e) => e.type === "model_request").length, 1, "one request of the tool loop, four HTTP attempts");

    const show = await runIn(root, ["runs", "show", "1", "--json"], env());
    const { run, invocations } = JSON.parse(show.stdout);
    assert.deepEqual([run.modelCalls, run.requestBytes, run.totalTokens], [4, inv.request_bytes, 1208], "runs show has the same figures");
    assert.deepEqual(invocations[0].counters.model_calls, 4);
  } finally {
    await model.close();
  }
});

test("a 500 that outlasts every retry is 7 model calls and an AIError naming the retries", async () => {
  const model = await startLoopbackModel({ responder: () => RETRY_NOW });
  try {
    const ran = await runIn(project(model), ["--stats=json", "main.py"], env());
    assert.equal(ran.exitCode, 1);
    assert.match(ran.stderr, /AIError: the provider failed \(HTTP 500\) for route loop through 6 retries/);
    assert.equal(chatBodies(model).length, 7);
    assert.equal(statsOf(ran.stderr).invocations[0].model_calls, 7);
  } finally {
    await model.close();
  }
});

test("under --replay nothing is sent: the answer counts as replayed, with no bytes, tokens or cost", async () => {
  const model = await startLoopbackModel({ script: [{ ...finishCall({ kind: "literal", value: "billing" }), usage: USAGE }] });
  try {
    const root = project(model, "{ input = 2, output = 8 }");
    const recorded = await runIn(root, ["main.py"], env());
    assert.equal(recorded.exitCode, 0, recorded.stderr);
    const replayed = await runIn(root, ["--replay", "--stats=json", "main.py"], env());
    assert.equal(replayed.exitCode, 0, replayed.stderr);
    assert.equal(replayed.stdout, "billing\n");
    assert.equal(chatBodies(model).length, 1);
    const stats = statsOf(replayed.stderr);
    const [inv] = stats.invocations;
    assert.deepEqual([inv.model_calls, inv.replayed, inv.request_bytes, inv.token_usage.total_tokens, inv.cost_usd], [0, 1, 0, 0, 0]);
    assert.deepEqual([stats.run.model_calls, stats.run.replayed, stats.run.cost_usd], [0, 1, 0]);
    const text = await runIn(root, ["--replay", "--stats", "main.py"], env());
    assert.match(text.stderr, /^aiython stats: 1 AI invocation, 0 model calls \(1 replayed\), 1 tool call, 0 B sent, 0 tokens, \$0, /m);
  } finally {
    await model.close();
  }
});

test("with a price, each request costs its usage, cached prompt tokens at cached_input; --stats and runs agree", async () => {
  const script = [RETRY_NOW, { ...finishCall({ kind: "literal", value: "billing" }), usage: USAGE }];
  const model = await startLoopbackModel({ script });
  try {
    const root = project(model, "{ input = 2.0, output = 8.0, cached_input = 0.5 }");
    const ran = await runIn(root, ["--stats=json", "main.py"], env());
    assert.equal(ran.exitCode, 0, ran.stderr);
    // (1200 - 1024) × $2 + 1024 × $0.50 + 8 × $8 per million; the failed attempt cost nothing.
    const expected = (176 * 2 + 1024 * 0.5 + 8 * 8) / 1e6;
    const stats = statsOf(ran.stderr);
    assert.equal(stats.invocations[0].cost_usd, expected);
    assert.deepEqual(stats.invocations[0].unpriced_routes, []);
    assert.equal(stats.run.cost_usd, expected);

    model.setScript(script);
    const text = await runIn(root, ["--stats", "main.py"], env());
    const lines = text.stderr.trimEnd().split("\n");
    assert.match(lines[0], /, 1208 tokens, \$0\.000928, /);
    assert.match(lines[1], /\bcost\b/);
    assert.match(lines[2], /^ {2}main\.py:2\s+syntax\s+finished\s+2\s+1\s+[\d.]+ KB\s+1208\s+\$0\.000928\s+[\d.]+$/);

    const list = await runIn(root, ["runs", "list"], env());
    assert.match(list.stdout.split("\n")[1], /\$0\.000928$/);
    const show = await runIn(root, ["runs", "show", "2"], env());
    assert.match(show.stdout, /1208 tokens, \$0\.000928\n/);
    const config = JSON.parse((await runIn(root, ["config", "show"], env())).stdout);
    assert.deepEqual(config.profiles.default.routes[0].price, { input: 2, output: 8, cached_input: 0.5 });
  } finally {
    await model.close();
  }
});

test("without a price the cost is unknown and the route is named", async () => {
  const model = await startLoopbackModel({ script: [{ ...finishCall({ kind: "literal", value: "billing" }), usage: USAGE }] });
  try {
    const ran = await runIn(project(model), ["--stats", "main.py"], env());
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.match(ran.stderr.split("\n")[0], /, 1208 tokens, cost unknown \(no price for loop\), /);
    assert.match(ran.stderr.split("\n")[2], /\sunknown\s+[\d.]+$/);
  } finally {
    await model.close();
  }
});

test("a type repair and a recovery consultation count every request: in --stats, the budget and runs show", async () => {
  const program = [
    "from typing import Literal",
    'ticket = "I was charged twice"',
    'kind: Literal["bug", "billing"] = classify this ticket',
    "print(kind)",
    "rate = 1 / 0",
    "print(rate)",
    "",
  ].join("\n");
  const used = { usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 } };
  const script: ScriptedReply[] = [
    { ...finishCall({ kind: "literal", value: "refund" }), ...used }, // not a Literal member: the model is asked again
    { ...finishCall({ kind: "literal", value: "billing" }), ...used },
    { toolCalls: [toolCall("evaluate", { code: "1 + 1" })], ...used }, // the consultation looks first
    { toolCalls: [toolCall("recover", { action: "complete", outcome: { kind: "literal", value: 0.5 } })], ...used },
  ];
  const model = await startLoopbackModel({ script });
  try {
    const root = tempProject({ "main.py": program, "aiython.toml": `version = 3\nmodel = { model = "loop", api_base = "${model.url}" }\n` });
    const ran = await runIn(root, ["--stats=json", "main.py"], env());
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, "billing\n0.5\n");
    const bodies = chatBodies(model);
    assert.equal(bodies.length, 4);
    const stats = statsOf(ran.stderr);
    assert.deepEqual(
      stats.invocations.map((i: { mode: string; model_calls: number }) => [i.mode, i.model_calls]),
      [
        ["syntax", 2],
        ["recovery", 2],
      ],
    );
    assert.deepEqual(
      stats.invocations.map((i: { token_usage: { total_tokens: number } }) => i.token_usage.total_tokens),
      [210, 210],
    );
    assert.equal(stats.run.model_calls, 4);
    assert.equal(
      stats.run.request_bytes,
      bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0),
    );

    const show = JSON.parse((await runIn(root, ["runs", "show", "1", "--json"], env())).stdout);
    assert.deepEqual([show.run.modelCalls, show.run.requestBytes, show.run.totalTokens], [4, stats.run.request_bytes, 420]);

    // With 3 calls allowed the consultation's second request is the one refused.
    model.setScript(script.slice(0, 3));
    const capped = await runIn(root, ["--budget-calls", "3", "main.py"], env());
    assert.equal(capped.exitCode, 75, capped.stderr);
    assert.equal(capped.stdout, "billing\n");
    assert.equal(chatBodies(model).length, 4 + 3);
    assert.match(
      capped.stderr,
      /ZeroDivisionError: division by zero\n[\s\S]*line 5, in <module>[\s\S]*aiython\.AIBudgetError: budget exhausted: --budget-calls 3: it allows 3 model requests and 3 were sent/,
    );
  } finally {
    await model.close();
  }
});
