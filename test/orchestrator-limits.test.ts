// The model tool loop (SPEC §5.4), its limits, driven by a scripted model and a fake frame: the same
// failing call twice, max_rounds, invalid batches, empty responses, the deadline over model and tool
// time, cancellation, and model call errors.

import { test } from "node:test";
import assert from "node:assert/strict";
import { ModelCallError, type ChatMessage } from "../src/model-port.js";
import { toolCall } from "./support/scripted-model.js";
import { ok, opError } from "./support/fake-frame.js";
import { literal, literalTypeCheck, run } from "./support/invocation-run.js";
import type { StopSignal } from "../src/stop-signal.js";

test("the same failing call twice in a row fails the invocation after two requests", async () => {
  const same = () => ({ calls: [toolCall(`c${Math.random()}`, "finish", literal("feature"))] });
  const { end, model } = await run({ handlers: { finish: literalTypeCheck }, steps: [same(), same(), same(), same()] });
  assert.equal(model.requests.length, 2);
  assert.deepEqual(end, {
    status: "failed",
    reason: "the model repeated a failing finish call (kind: expected Literal['bug', 'billing'], got str 'feature'); make the instruction or the expected type clearer",
  });
});

test("a model that keeps sending different wrong values stops at max_rounds", async () => {
  const steps = ["a", "b", "c", "d", "e", "f"].map((value, i) => ({ calls: [toolCall(`c${i}`, "finish", literal(value))] }));
  const { end, model, stats } = await run({ handlers: { finish: literalTypeCheck }, settings: { maxRounds: 4 }, steps });
  assert.equal(model.requests.length, 4);
  assert.equal(stats.model_calls, 4);
  assert.deepEqual(end, {
    status: "failed",
    reason: "the model made 4 requests without finishing (max_rounds = 4); make the instruction simpler or raise max_rounds in aiython.toml",
  });
});

test("a success between two identical failures clears the repeat rule", async () => {
  const failing = (id: string) => toolCall(id, "evaluate", { code: "tickets[0]" });
  let evaluations = 0;
  const { end, model } = await run({
    handlers: {
      evaluate: () =>
        ++evaluations === 2 ? ok({ handle: "object-2", type: "int", module: "builtins", qualname: "int", value: 1 }) : opError("NameError", "name 'tickets' is not defined"),
    },
    steps: [{ calls: [failing("a")] }, { calls: [toolCall("b", "evaluate", { code: "1" })] }, { calls: [failing("c")] }, { calls: [toolCall("d", "finish", literal("bug"))] }],
  });
  assert.deepEqual(end, { status: "finished" });
  assert.equal(model.requests.length, 4);
});

test("two invalid batches in a row fail the invocation", async () => {
  const bad = (id: string) => ({ calls: [toolCall(id, "finish", { outcome: { kind: "literal" } })] });
  const { end, model, frame, stats } = await run({ steps: [bad("c1"), bad("c2"), { calls: [toolCall("c3", "finish", literal("bug"))] }] });
  assert.equal(model.requests.length, 2);
  assert.deepEqual(frame.ops, []);
  assert.equal(stats.invalid_batches, 2);
  assert.deepEqual(end, {
    status: "failed",
    reason: 'the model sent 2 invalid tool batches in a row (finish: outcome kind "literal" needs the field "value"); try a more capable model or a clearer instruction',
  });
});

test("a valid batch between invalid ones resets the invalid-batch count", async () => {
  const bad = (id: string) => ({ calls: [toolCall(id, "finish", { outcome: { kind: "literal" } })] });
  const { end, stats } = await run({
    steps: [bad("c1"), { calls: [toolCall("c2", "get_binding", { name: "ticket" })] }, bad("c3"), { calls: [toolCall("c4", "finish", literal("bug"))] }],
  });
  assert.deepEqual(end, { status: "finished" });
  assert.equal(stats.invalid_batches, 2);
});

test("an empty response gets one reminder; a second in a row fails", async () => {
  const { end, model, stats } = await run({ steps: [{ calls: [], content: "It is billing." }, { calls: [] }, { calls: [toolCall("c1", "finish", literal("bug"))] }] });
  assert.equal(model.requests.length, 2);
  assert.deepEqual(model.requests[1].request.messages.slice(3), [
    { role: "assistant", content: "It is billing." },
    { role: "user", content: "Your response had no tool call. Answer only with tool calls, and end this invocation with finish as the last call." },
  ]);
  assert.equal(stats.empty_responses, 2);
  assert.deepEqual(end, { status: "failed", reason: "the model returned no tool call 2 times in a row; use a model that supports tool calling" });
});

test("one empty response followed by a terminal call succeeds", async () => {
  const { end, model, stats } = await run({ steps: [{ calls: [] }, { calls: [toolCall("c1", "finish", literal("bug"))] }] });
  assert.deepEqual(end, { status: "finished" });
  assert.equal(model.requests.length, 2);
  assert.equal(stats.empty_responses, 1);
  const reminder = model.requests[1].request.messages.at(-1) as ChatMessage;
  assert.equal(reminder.role, "user");
  assert.match(reminder.content as string, /no tool call/);
});

test("the deadline covers model time: a late response ends the invocation before more work", async () => {
  let clock = 1_000_000;
  const { end, model, frame } = await run({
    now: () => clock,
    settings: { timeoutSeconds: 120 },
    steps: [
      (_request, options) => {
        assert.equal(options.deadline, 1_000_000 + 120_000);
        clock += 121_000;
        return { message: { content: null, tool_calls: [toolCall("c1", "evaluate", { code: "1" })] }, requestBytes: 10, providerSeconds: 121, route: "r" };
      },
    ],
  });
  assert.equal(model.requests.length, 1);
  assert.deepEqual(frame.ops, []);
  assert.deepEqual(end, { status: "failed", reason: "the model did not finish within the 120 s timeout; raise timeout in aiython.toml or make the instruction simpler" });
});

test("the deadline covers tool time: a hung frame op is abandoned, named, and interrupted", async () => {
  const { end, frame } = await run({
    settings: { timeoutSeconds: 0.05 },
    handlers: { execute: () => new Promise(() => {}) },
    steps: [{ calls: [toolCall("c1", "execute", { code: "while True: pass" }), toolCall("c2", "finish", literal("bug"))] }],
  });
  assert.deepEqual(frame.names(), ["execute"]);
  assert.equal(end.status, "failed");
  assert.match((end as { reason: string }).reason, /^the execute tool did not return within the 0\.05 s timeout and was interrupted; raise timeout in aiython\.toml/);
  assert.equal(frame.interrupted.length, 1, "the op's signal asked the bridge to interrupt it");
});

test("tool_timeout: an op past it is interrupted and the model gets ToolTimeout, then goes on", async () => {
  const interruptible = (_args: Record<string, unknown>, signal?: AbortSignal) =>
    new Promise<ReturnType<typeof ok>>((resolve) => signal?.addEventListener("abort", () => resolve(opError("ToolInterrupted", "execute was interrupted")), { once: true }));
  const { end, frame, model } = await run({
    settings: { timeoutSeconds: 30, toolTimeoutSeconds: 0.05 },
    handlers: { execute: interruptible },
    steps: [{ calls: [toolCall("c1", "execute", { code: "while True: pass" })] }, { calls: [toolCall("c2", "finish", literal("bug"))] }],
  });
  assert.deepEqual(frame.names(), ["execute", "finish"]);
  assert.deepEqual(frame.interrupted, ["execute"]);
  assert.equal(end.status, "finished");
  const result = JSON.parse(model.requests[1].request.messages.at(-1)!.content as string);
  assert.equal(result.error, "ToolTimeout");
  assert.match(result.message, /^execute did not return within 0\.05 s \(tool_timeout\) and was interrupted/);
});

test("an abort signal cancels a request in flight", async () => {
  const controller = new AbortController();
  let seenSignal: StopSignal | undefined;
  const { end } = await run({
    signal: controller.signal,
    steps: [
      (_request, options) => {
        seenSignal = options.signal;
        setTimeout(() => controller.abort(), 5);
        return new Promise(() => {});
      },
    ],
  });
  assert.deepEqual(end, { status: "failed", reason: "cancelled" });
  assert.equal(seenSignal?.aborted, true, "the model port's signal is aborted too");
});

test("a ModelCallError becomes the failure reason; other errors are thrown", async () => {
  const message = "the provider rejected the API key (HTTP 401); check OPENAI_API_KEY";
  const { end, stats } = await run({ steps: [{ throws: new ModelCallError("auth", message) }] });
  assert.deepEqual(end, { status: "failed", reason: message });
  assert.equal(stats.model_calls, 0);
  const timedOut = await run({ steps: [{ throws: new ModelCallError("timeout", "request timed out") }] });
  assert.match((timedOut.end as { reason: string }).reason, /timeout in aiython\.toml/);
  await assert.rejects(run({ steps: [{ throws: new TypeError("bug in the client") }] }), /bug in the client/);
});
