// The model tool loop (SPEC §5), what it reports, driven by a scripted model and a fake frame: stats
// (usage, request bytes, provider time, every HTTP attempt, replayed answers, cost and unpriced
// routes), trace events, and a request refused by a budget.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { InvocationEvent } from "../src/invocation/orchestrator.js";
import { ModelCallError } from "../src/model-port.js";
import { toolCall, type ScriptStep } from "./support/scripted-model.js";
import { literal, literalTypeCheck, run } from "./support/invocation-run.js";

test("stats sum usage, request bytes and provider time over the calls", async () => {
  const { stats, model } = await run({
    handlers: { finish: literalTypeCheck },
    steps: [
      { calls: [toolCall("c1", "finish", literal("x"))], usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 } },
      { calls: [toolCall("c2", "finish", literal("bug"))], usage: { prompt_tokens: 1000, completion_tokens: 15, total_tokens: 1015, cached_tokens: 768 } },
    ],
  });
  assert.deepEqual(stats.token_usage, { prompt_tokens: 1900, completion_tokens: 35, total_tokens: 1935, cached_tokens: 768 });
  assert.equal(stats.request_bytes, model.requests[0].bodyBytes + model.requests[1].bodyBytes);
  assert.equal(stats.provider_seconds, 0.5);
  assert.equal(stats.tool_failures, 1);
  assert.ok(stats.invocation_seconds >= 0);
});

test("trace events cover requests, responses, tool calls, results and the outcome", async () => {
  let clock = 5_000;
  const { events } = await run({
    now: () => (clock += 1),
    steps: [{ calls: [toolCall("c1", "get_binding", { name: "ticket", result_id: "t" }), toolCall("c2", "finish", { outcome: { kind: "reference", id: "t" } })] }],
  });
  assert.deepEqual(
    events.map((e) => e.type),
    ["invocation_start", "model_request", "model_attempt", "model_response", "tool_call", "tool_result", "tool_call", "tool_result", "outcome"],
  );
  assert.ok(events.every((e) => e.invocation === "inv-1" && e.at > 5_000));
  const ats = events.map((e) => e.at);
  assert.deepEqual(
    ats,
    [...ats].sort((a, b) => a - b),
    "events are in order",
  );
  const start = events[0] as Extract<InvocationEvent, { type: "invocation_start" }>;
  assert.equal(start.mode, "syntax");
  const first = events[1] as Extract<InvocationEvent, { type: "model_request" }>;
  assert.equal(first.messages.length, 3);
  const attempt = events[2] as Extract<InvocationEvent, { type: "model_attempt" }>;
  assert.deepEqual([attempt.round, attempt.attempt, attempt.status, attempt.outcome], [1, 1, 200, "answer"]);
  assert.deepEqual(events.at(-1), { invocation: "inv-1", at: (events.at(-1) as InvocationEvent).at, type: "outcome", end: { status: "finished" } });
});

test("every HTTP request a call reports counts (retries included); a replayed answer counts as replayed only", async () => {
  const attempt = (n: number, status: number | null, usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }) => ({
    route: "r/m",
    attempt: n,
    requestBytes: 1000,
    status,
    outcome: status === 200 ? "answer" : `HTTP ${status}`,
    server: "h:1",
    startedAt: 0,
    seconds: 0.1,
    ...(usage ? { usage } : {}),
    costUsd: status === 200 ? 0.003 : 0,
  });
  const retried: ScriptStep = (_request, options) => {
    options.attempts?.sent?.(attempt(1, 500));
    options.attempts?.sent?.(attempt(2, 500));
    options.attempts?.sent?.(attempt(3, 200, { prompt_tokens: 900, completion_tokens: 10, total_tokens: 910 }));
    return { message: { content: null, tool_calls: [toolCall("c1", "finish", literal("billing"))] }, requestBytes: 1000, providerSeconds: 2, route: "r/m" };
  };
  const { stats, events } = await run({ steps: [retried] });
  assert.deepEqual([stats.model_calls, stats.request_bytes, stats.token_usage.total_tokens, stats.replayed], [3, 3000, 910, 0]);
  assert.equal(stats.cost_usd, 0.003);
  assert.deepEqual(
    events.filter((e) => e.type === "model_attempt").map((e) => (e as { status: number }).status),
    [500, 500, 200],
  );

  const replayed: ScriptStep = () => ({
    message: { content: null, tool_calls: [toolCall("c1", "finish", literal("billing"))] },
    usage: { prompt_tokens: 5, total_tokens: 5 },
    requestBytes: 4000,
    providerSeconds: 0,
    route: "r/m",
    replayed: true,
  });
  const again = await run({ steps: [replayed] });
  assert.deepEqual([again.stats.model_calls, again.stats.request_bytes, again.stats.token_usage.total_tokens, again.stats.replayed, again.stats.cost_usd], [0, 0, 0, 1, 0]);
});

test("a request refused by a budget ends the invocation failed with budget set, and is traced", async () => {
  const { end, events, stats } = await run({
    steps: [{ throws: new ModelCallError("budget", "budget exhausted: --budget-calls 2: it allows 2 model requests and 2 were sent; this request was not sent") }],
  });
  assert.deepEqual(end, { status: "failed", reason: "budget exhausted: --budget-calls 2: it allows 2 model requests and 2 were sent; this request was not sent", budget: true });
  assert.equal(stats.model_calls, 0);
  assert.deepEqual(
    events.map((e) => e.type),
    ["invocation_start", "model_request", "model_error", "outcome"],
  );
});

test("a route without a price makes the invocation's cost unknown and names the route", async () => {
  const step: ScriptStep = (_request, options) => {
    options.attempts?.sent?.({ route: "local/llama", attempt: 1, requestBytes: 10, status: 200, outcome: "answer", server: "h:1", startedAt: 0, seconds: 0, costUsd: null });
    return { message: { content: null, tool_calls: [toolCall("c1", "finish", literal("bug"))] }, requestBytes: 10, providerSeconds: 0, route: "local/llama" };
  };
  const { stats } = await run({ steps: [step] });
  assert.deepEqual([stats.cost_usd, stats.unpriced_routes], [null, ["local/llama"]]);
});
