// The model tool loop (SPEC §5) driven by a scripted model and a fake frame: messages, execution
// order, terminal handling, the §5.4 limits, recovery decisions, stats, events and request size.

import { test } from "node:test";
import assert from "node:assert/strict";
import { runInvocation, type InvocationEvent } from "../src/recovery/invocation/orchestrator.js";
import { ModelCallError, type ChatMessage, type ModelRequest } from "../src/model-port.js";
import type { PauseRequest } from "../src/recovery/bridge/protocol.js";
import { RECOVERY_SYSTEM_PROMPT, SYNTAX_SYSTEM_PROMPT, canonicalJson } from "../src/recovery/invocation/prompt.js";
import { SIMPLE_BLOCK_REQUEST_BUDGET_BYTES } from "../src/defaults.js";
import { ScriptedModel, toolCall, type ScriptStep } from "./support/scripted-model.js";
import { FakeFrame, ok, opError, type OpHandler } from "./support/fake-frame.js";
import { checkpoint, expressionBlock, settings, statementBlock } from "./support/pause-requests.js";

const literal = (value: unknown) => ({ outcome: { kind: "literal", value } });

async function run(options: {
  request?: PauseRequest;
  steps: ScriptStep[];
  handlers?: Partial<Record<string, OpHandler>>;
  settings?: Parameters<typeof settings>[0];
  now?: () => number;
  signal?: AbortSignal;
}) {
  const model = new ScriptedModel(options.steps);
  const frame = new FakeFrame(options.handlers);
  const events: InvocationEvent[] = [];
  const result = await runInvocation({
    id: "inv-1",
    request: options.request ?? expressionBlock(),
    settings: settings(options.settings),
    model,
    frame,
    onEvent: (event) => events.push(event),
    now: options.now,
    signal: options.signal,
  });
  return { ...result, model, frame, events };
}

/** The tool messages a request carries after its last assistant message. */
function lastToolResults(request: ModelRequest): { id: string; body: unknown }[] {
  const messages = request.messages;
  const lastAssistant = messages.map((m) => m.role).lastIndexOf("assistant");
  return messages.slice(lastAssistant + 1).flatMap((m) => (m.role === "tool" ? [{ id: m.tool_call_id, body: JSON.parse(m.content) }] : []));
}

const literalTypeCheck: OpHandler = (args) => {
  const value = (args.outcome as { value?: unknown }).value;
  return value === "bug" || value === "billing"
    ? ok({ handle: "object-9", type: "str", module: "builtins", qualname: "str", value })
    : opError("TypeContractError", `kind: expected Literal['bug', 'billing'], got str '${String(value)}'`);
};

test("a small block finishes in one response with a literal", async () => {
  const { end, stats, model, frame } = await run({ steps: [{ calls: [toolCall("c1", "finish", literal("billing"))] }] });
  assert.deepEqual(end, { status: "finished" });
  assert.equal(model.requests.length, 1);
  assert.deepEqual(frame.ops, [{ name: "finish", args: { outcome: { kind: "literal", value: "billing" }, call_id: "c1" } }]);
  const request = model.requests[0].request;
  assert.equal(request.toolChoice, "required");
  assert.deepEqual(request.messages.map((m) => m.role), ["system", "user", "user"]);
  assert.equal(request.messages[0].content, SYNTAX_SYSTEM_PROMPT);
  // §5.1: nothing about recovery in an AI block's request, and no get_frame_code (its code is code_context).
  assert.doesNotMatch(SYNTAX_SYSTEM_PROMPT, /recover|retry|reraise/);
  assert.deepEqual(request.tools.map((t) => t.function.name), ["evaluate", "execute", "get_binding", "set_binding", "inspect", "frames", "finish"]);
  for (const tool of request.tools) assert.equal(tool.function.parameters.additionalProperties, false, tool.function.name);
  assert.deepEqual({ model_calls: stats.model_calls, tool_calls: stats.tool_calls, tool_counts: stats.tool_counts }, { model_calls: 1, tool_calls: 1, tool_counts: { finish: 1 } });
});

test("the stable message holds the block and the live message holds the values", async () => {
  const { model } = await run({ steps: [{ calls: [toolCall("c1", "finish", literal("bug"))] }] });
  const [, stable, live] = model.requests[0].request.messages as { content: string }[];
  const block = expressionBlock();
  assert.deepEqual(JSON.parse(stable.content), {
    code_context: block.code_context,
    hints: { prompts: [] },
    location: block.location,
    mode: "syntax",
    output_schema: { enum: ["bug", "billing"] },
    output_type: "Literal['bug', 'billing']",
    permissions: { execute_code: true },
    requires_result: true,
    statement: "classify this ticket",
    target: "kind",
  });
  assert.deepEqual(JSON.parse(live.content), { frame_objects: [], related_objects: block.related_objects });
});

test("evaluate then finish with a reference by result_id", async () => {
  const { end, frame } = await run({
    steps: [{ calls: [toolCall("c1", "evaluate", { code: "ticket.upper()", result_id: "up" }), toolCall("c2", "finish", { outcome: { kind: "reference", id: "up" } })] }],
  });
  assert.deepEqual(end, { status: "finished" });
  assert.deepEqual(frame.ops, [
    { name: "evaluate", args: { code: "ticket.upper()", result_id: "up", call_id: "c1" } },
    { name: "finish", args: { outcome: { kind: "reference", id: "up" }, call_id: "c2" } },
  ]);
});

test("get_binding then finish with a reference by the call's id", async () => {
  const { end, frame, stats } = await run({
    steps: [{ calls: [toolCall("call_a", "get_binding", { name: "ticket" }), toolCall("call_b", "finish", { outcome: { kind: "reference", id: "call_a" } })] }],
  });
  assert.deepEqual(end, { status: "finished" });
  assert.deepEqual(frame.names(), ["get_binding", "finish"]);
  assert.deepEqual(frame.ops[1].args, { outcome: { kind: "reference", id: "call_a" }, call_id: "call_b" });
  assert.deepEqual(stats.tool_counts, { get_binding: 1, finish: 1 });
});

test("a statement block executes its effect and finishes with none", async () => {
  const { end, frame } = await run({
    request: statementBlock(),
    steps: [{ calls: [toolCall("c1", "execute", { code: "print(f'Hello, {name}!')" }), toolCall("c2", "finish", { outcome: { kind: "none" } })] }],
  });
  assert.deepEqual(end, { status: "finished" });
  assert.deepEqual(frame.ops, [
    { name: "execute", args: { code: "print(f'Hello, {name}!')", call_id: "c1" } },
    { name: "finish", args: { outcome: { kind: "none" }, call_id: "c2" } },
  ]);
});

test("a type violation goes back to the model as a tool error and can be repaired", async () => {
  const { end, stats, model, frame } = await run({
    handlers: { finish: literalTypeCheck },
    steps: [{ calls: [toolCall("c1", "finish", literal("feature"))] }, { calls: [toolCall("c2", "finish", literal("bug"))] }],
  });
  assert.deepEqual(end, { status: "finished" });
  assert.equal(model.requests.length, 2);
  const second = model.requests[1].request;
  assert.deepEqual(second.messages.slice(3), [
    { role: "assistant", content: null, tool_calls: [toolCall("c1", "finish", literal("feature"))] },
    { role: "tool", tool_call_id: "c1", content: `{"status":"error","error":"TypeContractError","message":"kind: expected Literal['bug', 'billing'], got str 'feature'"}` },
  ]);
  assert.deepEqual(frame.names(), ["finish", "finish"]);
  assert.equal(stats.tool_failures, 1);
  assert.equal(stats.tool_calls, 2);
});

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
    handlers: { evaluate: () => (++evaluations === 2 ? ok({ handle: "object-2", type: "int", module: "builtins", qualname: "int", value: 1 }) : opError("NameError", "name 'tickets' is not defined")) },
    steps: [{ calls: [failing("a")] }, { calls: [toolCall("b", "evaluate", { code: "1" })] }, { calls: [failing("c")] }, { calls: [toolCall("d", "finish", literal("bug"))] }],
  });
  assert.deepEqual(end, { status: "finished" });
  assert.equal(model.requests.length, 4);
});

test("a failing call skips the rest of its batch, keeping earlier effects", async () => {
  const { model, frame } = await run({
    handlers: { evaluate: () => opError("ZeroDivisionError", "division by zero") },
    steps: [
      { calls: [toolCall("c1", "execute", { code: "n = 1" }), toolCall("c2", "evaluate", { code: "1/0", result_id: "r" }), toolCall("c3", "finish", { outcome: { kind: "reference", id: "r" } })] },
      { calls: [toolCall("c4", "finish", literal("bug"))] },
    ],
  });
  assert.deepEqual(frame.names(), ["execute", "evaluate", "finish"]);
  assert.deepEqual(lastToolResults(model.requests[1].request), [
    { id: "c1", body: { status: "ok", result: { ok: true } } },
    { id: "c2", body: { status: "error", error: "ZeroDivisionError", message: "division by zero" } },
    { id: "c3", body: { status: "skipped", message: "an earlier call of this response failed; this call did not run" } },
  ]);
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
      (request, options) => {
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

test("the deadline covers tool time: a hung frame op is abandoned", async () => {
  const { end, frame } = await run({
    settings: { timeoutSeconds: 0.05 },
    handlers: { execute: () => new Promise(() => {}) },
    steps: [{ calls: [toolCall("c1", "execute", { code: "while True: pass" }), toolCall("c2", "finish", literal("bug"))] }],
  });
  assert.deepEqual(frame.names(), ["execute"]);
  assert.equal(end.status, "failed");
  assert.match((end as { reason: string }).reason, /within the 0\.05 s timeout; raise timeout in aiython\.toml/);
});

test("an abort signal cancels a request in flight", async () => {
  const controller = new AbortController();
  let seenSignal: AbortSignal | undefined;
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

test("an error outcome fails the invocation without asking the frame", async () => {
  const { end, frame, stats } = await run({
    steps: [{ calls: [toolCall("c1", "finish", { outcome: { kind: "error", reason: "no image_generation route is configured", missing_capability: "image_generation" } })] }],
  });
  assert.deepEqual(end, { status: "failed", reason: "no image_generation route is configured", missing_capability: "image_generation" });
  assert.deepEqual(frame.ops, []);
  assert.deepEqual(stats.tool_counts, { finish: 1 });
});

test("without execute_code, evaluate and execute are not offered and an expression outcome ends the invocation", async () => {
  const { end, model, frame } = await run({
    settings: { permissions: new Set(["read_code"]) },
    steps: [{ calls: [toolCall("c1", "finish", { outcome: { kind: "expression", code: "'bug'" } })] }],
  });
  assert.deepEqual(end, {
    status: "failed",
    permission: "execute_code",
    reason: 'the model ended with finish and an expression outcome, which needs the execute_code permission; profile "default" does not grant it (to allow it, add "execute_code" to permissions in aiython.toml)',
  });
  const tools = model.requests[0].request.tools;
  assert.deepEqual(tools.map((t) => t.function.name), ["get_binding", "set_binding", "inspect", "frames", "finish"]);
  const finish = tools.find((t) => t.function.name === "finish")!.function.parameters as { properties: { outcome: { properties: Record<string, { enum?: string[] }> } } };
  assert.deepEqual(finish.properties.outcome.properties.kind.enum, ["literal", "reference", "handle", "error"]);
  assert.equal("code" in finish.properties.outcome.properties, false);
  assert.equal(model.requests.length, 1);
  assert.deepEqual(frame.names(), [], "the denied call never reached the frame");
  assert.deepEqual(JSON.parse(model.requests[0].request.messages[1].content as string).permissions, { execute_code: false });
});

test("recovery: complete with a value binds the target", async () => {
  const { end, model, frame } = await run({
    request: checkpoint(),
    steps: [{ calls: [toolCall("c1", "recover", { action: "complete", outcome: { kind: "literal", value: 12 } })] }],
  });
  assert.deepEqual(end, { status: "finished", action: "complete" });
  assert.deepEqual(frame.ops, [{ name: "recover", args: { action: "complete", outcome: { kind: "literal", value: 12 }, call_id: "c1" } }]);
  const request = model.requests[0].request;
  assert.deepEqual(request.tools.map((t) => t.function.name), ["evaluate", "execute", "get_binding", "set_binding", "inspect", "get_frame_code", "frames", "recover"]);
  assert.equal(request.messages[0].content, RECOVERY_SYSTEM_PROMPT);
  assert.doesNotMatch(RECOVERY_SYSTEM_PROMPT, /finish|AI block/);
  const frameCode = request.tools.find((t) => t.function.name === "get_frame_code")!.function.parameters as { properties: { frame: { enum: string[] } } };
  assert.deepEqual(frameCode.properties.frame.enum, ["active", "origin"]);
  assert.deepEqual(JSON.parse(request.messages[2].content as string).recovery, checkpoint().recovery);
});

test("recovery: retry and reraise end the invocation with their action", async () => {
  const retry = await run({
    request: checkpoint(),
    steps: [{ calls: [toolCall("c1", "execute", { code: "raw = '12'" }), toolCall("c2", "recover", { action: "retry" })] }],
  });
  assert.deepEqual(retry.end, { status: "finished", action: "retry" });
  assert.deepEqual(retry.frame.names(), ["execute", "recover"]);
  const reraise = await run({
    request: checkpoint(),
    steps: [{ calls: [toolCall("c1", "recover", { action: "reraise", explanation: "raw holds prose, not a number" })] }],
  });
  assert.deepEqual(reraise.end, { status: "finished", action: "reraise" });
  assert.deepEqual(reraise.frame.ops[0].args, { action: "reraise", explanation: "raw holds prose, not a number", call_id: "c1" });
});

test("recovery: complete with outcome none reaches the frame as complete without outcome", async () => {
  const { end, frame } = await run({
    request: checkpoint({ target: null }),
    steps: [{ calls: [toolCall("c1", "recover", { action: "complete", outcome: { kind: "none" } })] }],
  });
  assert.deepEqual(end, { status: "finished", action: "complete" });
  assert.deepEqual(frame.ops, [{ name: "recover", args: { action: "complete", call_id: "c1" } }]);
});

test("recovery: retry is neither offered nor accepted when the checkpoint refuses it", async () => {
  const { end, model, frame } = await run({
    request: checkpoint({ retryAllowed: false }),
    steps: [{ calls: [toolCall("c1", "recover", { action: "retry" })] }, { calls: [toolCall("c2", "recover", { action: "reraise" })] }],
  });
  assert.deepEqual(end, { status: "finished", action: "reraise" });
  const recover = model.requests[0].request.tools.find((t) => t.function.name === "recover")!.function.parameters as { properties: { action: { enum: string[] } } };
  assert.deepEqual(recover.properties.action.enum, ["complete", "reraise"]);
  assert.deepEqual(frame.names(), ["recover"]);
  assert.deepEqual(lastToolResults(model.requests[1].request)[0].body, {
    status: "error",
    message: 'recover: action "retry" is not allowed for this checkpoint (a compound statement, or the traceback passes through another project frame); valid actions: "complete", "reraise"',
  });
});

test("recovery: an error outcome is refused", async () => {
  const { model, frame, end } = await run({
    request: checkpoint(),
    steps: [
      { calls: [toolCall("c1", "recover", { action: "complete", outcome: { kind: "error", reason: "cannot parse" } })] },
      { calls: [toolCall("c2", "recover", { action: "reraise", explanation: "cannot parse" })] },
    ],
  });
  assert.deepEqual(end, { status: "finished", action: "reraise" });
  assert.deepEqual(frame.names(), ["recover"]);
  assert.deepEqual(lastToolResults(model.requests[1].request)[0].body, {
    status: "error",
    message: 'recover: recover cannot use outcome kind "error"; to give up, call recover with action "reraise" and an explanation',
  });
});

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
  assert.deepEqual(events.map((e) => e.type), [
    "invocation_start", "model_request", "model_attempt", "model_response", "tool_call", "tool_result", "tool_call", "tool_result", "outcome",
  ]);
  assert.ok(events.every((e) => e.invocation === "inv-1" && e.at > 5_000));
  const ats = events.map((e) => e.at);
  assert.deepEqual(ats, [...ats].sort((a, b) => a - b), "events are in order");
  const start = events[0] as Extract<InvocationEvent, { type: "invocation_start" }>;
  assert.equal(start.mode, "syntax");
  const first = events[1] as Extract<InvocationEvent, { type: "model_request" }>;
  assert.equal(first.messages.length, 3);
  const attempt = events[2] as Extract<InvocationEvent, { type: "model_attempt" }>;
  assert.deepEqual([attempt.round, attempt.attempt, attempt.status, attempt.outcome], [1, 1, 200, "answer"]);
  assert.deepEqual(events.at(-1), { invocation: "inv-1", at: (events.at(-1) as InvocationEvent).at, type: "outcome", end: { status: "finished" } });
});

test(`a one-line block with small inputs sends a request body under ${SIMPLE_BLOCK_REQUEST_BUDGET_BYTES} bytes`, async () => {
  const { model } = await run({ steps: [{ calls: [toolCall("c1", "finish", literal("billing"))] }] });
  const bytes = model.requests[0].bodyBytes;
  console.log(`request body for a one-line block: ${bytes} bytes`);
  assert.ok(bytes < SIMPLE_BLOCK_REQUEST_BUDGET_BYTES, `${bytes} bytes`);
  const recovery = await run({ request: checkpoint(), steps: [{ calls: [toolCall("c1", "recover", { action: "reraise" })] }] });
  console.log(`request body for a one-line checkpoint: ${recovery.model.requests[0].bodyBytes} bytes`);
  assert.ok(recovery.model.requests[0].bodyBytes < SIMPLE_BLOCK_REQUEST_BUDGET_BYTES);
});

test("canonical JSON sorts keys at every level, is compact and refuses NaN and Infinity", () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: "é" }, u: undefined }), '{"a":{"c":"é","d":[1,{"y":null,"z":true}]},"b":1}');
  assert.throws(() => canonicalJson({ x: Number.NaN }), /\$\.x is NaN/);
  assert.throws(() => canonicalJson([Number.POSITIVE_INFINITY]), /\$\[0\] is Infinity/);
  assert.throws(() => canonicalJson({ f: () => 1 }), /function/);
});

test("the stable message is byte-identical across invocations of the same block", async () => {
  const first = await run({ steps: [{ calls: [toolCall("c1", "finish", literal("bug"))] }] });
  const changed = expressionBlock({ related_objects: [{ name: "ticket", type: "str", module: "builtins", qualname: "str", value: "The app crashes on start." }] });
  const second = await run({ request: changed, steps: [{ calls: [toolCall("c1", "finish", literal("bug"))] }] });
  const [a, b] = [first, second].map((r) => r.model.requests[0].request.messages as { content: string }[]);
  assert.equal(a[0].content, b[0].content);
  assert.equal(a[1].content, b[1].content);
  assert.notEqual(a[2].content, b[2].content);
  assert.equal(a[1].content, canonicalJson(JSON.parse(a[1].content)), "already canonical");
  assert.deepEqual(first.model.requests[0].request.tools, second.model.requests[0].request.tools);
  assert.ok(a[1].content.startsWith('{"code_context":{"end_line":11,"file":"tickets.py","source":'));
});

test("terminal ops carry the model's raw argument text so the bridge keeps 3.0 a float", async () => {
  const raw = '{"outcome":{"kind":"literal","value":3.0}}';
  const model = new ScriptedModel([{ calls: [toolCall("c1", "finish", raw)] }]);
  const frame = new FakeFrame();
  const { end } = await runInvocation({ id: "i1", request: expressionBlock(), settings: settings(), model, frame });
  assert.equal(end.status, "finished");
  assert.equal(frame.ops.at(-1)?.name, "finish");
  assert.deepEqual(frame.rawArguments, [raw]);
});

test("every HTTP request a call reports counts (retries included); a replayed answer counts as replayed only", async () => {
  const attempt = (n: number, status: number | null, usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }) => ({
    route: "r/m", attempt: n, requestBytes: 1000, status, outcome: status === 200 ? "answer" : `HTTP ${status}`, server: "h:1", startedAt: 0, seconds: 0.1,
    ...(usage ? { usage } : {}), costUsd: status === 200 ? 0.003 : 0,
  });
  const retried: ScriptStep = (request, options) => {
    options.attempts?.sent?.(attempt(1, 500));
    options.attempts?.sent?.(attempt(2, 500));
    options.attempts?.sent?.(attempt(3, 200, { prompt_tokens: 900, completion_tokens: 10, total_tokens: 910 }));
    return { message: { content: null, tool_calls: [toolCall("c1", "finish", literal("billing"))] }, requestBytes: 1000, providerSeconds: 2, route: "r/m" };
  };
  const { stats, events } = await run({ steps: [retried] });
  assert.deepEqual([stats.model_calls, stats.request_bytes, stats.token_usage.total_tokens, stats.replayed], [3, 3000, 910, 0]);
  assert.equal(stats.cost_usd, 0.003);
  assert.deepEqual(events.filter((e) => e.type === "model_attempt").map((e) => (e as { status: number }).status), [500, 500, 200]);

  const replayed: ScriptStep = () => ({
    message: { content: null, tool_calls: [toolCall("c1", "finish", literal("billing"))] }, usage: { prompt_tokens: 5, total_tokens: 5 },
    requestBytes: 4000, providerSeconds: 0, route: "r/m", replayed: true,
  });
  const again = await run({ steps: [replayed] });
  assert.deepEqual([again.stats.model_calls, again.stats.request_bytes, again.stats.token_usage.total_tokens, again.stats.replayed, again.stats.cost_usd], [0, 0, 0, 1, 0]);
});

test("a request refused by a budget ends the invocation failed with budget set, and is traced", async () => {
  const { end, events, stats } = await run({ steps: [{ throws: new ModelCallError("budget", "budget exhausted: --budget-calls 2: it allows 2 model requests and 2 were sent; this request was not sent") }] });
  assert.deepEqual(end, { status: "failed", reason: "budget exhausted: --budget-calls 2: it allows 2 model requests and 2 were sent; this request was not sent", budget: true });
  assert.equal(stats.model_calls, 0);
  assert.deepEqual(events.map((e) => e.type), ["invocation_start", "model_request", "model_error", "outcome"]);
});

test("a route without a price makes the invocation's cost unknown and names the route", async () => {
  const step: ScriptStep = (request, options) => {
    options.attempts?.sent?.({ route: "local/llama", attempt: 1, requestBytes: 10, status: 200, outcome: "answer", server: "h:1", startedAt: 0, seconds: 0, costUsd: null });
    return { message: { content: null, tool_calls: [toolCall("c1", "finish", literal("bug"))] }, requestBytes: 10, providerSeconds: 0, route: "local/llama" };
  };
  const { stats } = await run({ steps: [step] });
  assert.deepEqual([stats.cost_usd, stats.unpriced_routes], [null, ["local/llama"]]);
});

test("pauses of one kind share one fixed tool list; other kinds get their own", async () => {
  const { offeredToolSpecs, toolContext } = await import("../src/recovery/invocation/tools.js");
  const permissions = settings().permissions;
  const first = offeredToolSpecs(toolContext(expressionBlock(), permissions));
  const again = offeredToolSpecs(toolContext(expressionBlock({ statement: "another block of the same kind" }), permissions));
  assert.equal(again, first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0].function));
  const recovery = offeredToolSpecs(toolContext(checkpoint(), permissions));
  const noRetry = offeredToolSpecs(toolContext(checkpoint({ retryAllowed: false }), permissions));
  assert.notEqual(recovery, first);
  assert.notDeepEqual(noRetry, recovery);
  assert.deepEqual(JSON.parse(JSON.stringify(recovery)), JSON.parse(JSON.stringify(offeredToolSpecs(toolContext(checkpoint(), permissions)))));
  assert.ok(recovery.some((t) => t.function.name === "recover") && !first.some((t) => t.function.name === "recover"));
});

test("a block reached again gets the stable message of what it sends this time, remembered or not", async () => {
  const { stableMessage } = await import("../src/recovery/invocation/prompt.js");
  const expected = (request: PauseRequest, executeCode: boolean) =>
    canonicalJson({
      mode: request.mode, statement: request.statement, location: request.location, target: request.target, output_type: request.output_type,
      output_schema: request.output_schema, requires_result: request.requires_result, hints: request.hints, code_context: request.code_context,
      permissions: { execute_code: executeCode },
    });
  const visits = [
    expressionBlock({ block_id: "again.py:1" }),
    expressionBlock({ block_id: "again.py:1" }),
    expressionBlock({ block_id: "again.py:1", code_context: { file: "tickets.py", start_line: 7, end_line: 11, source: "changed = 1\n" } }),
    expressionBlock({ block_id: "again.py:1", hints: { prompts: ["be brief"] } }),
    expressionBlock({ block_id: "again.py:1" }),
  ];
  for (const request of visits) {
    for (const executeCode of [true, false, true]) {
      const permissions = new Set(executeCode ? ["execute_code"] : []);
      assert.equal(stableMessage(JSON.parse(JSON.stringify(request)), permissions), expected(request, executeCode));
    }
  }
});

test("the offered tool names shared between pauses are the tools unavailableReason lets each pause use", async () => {
  const { TOOL_NAMES, offeredToolNames, toolContext, unavailableReason } = await import("../src/recovery/invocation/tools.js");
  const mailbox = { status: () => ({ me: "a", peers: [], unread: 0 }) } as unknown as Parameters<typeof toolContext>[3];
  const statements = ["pick a number", "find which function in helper.py sets LIMIT", "read the module docs"];
  for (const pause of [...statements.map((statement) => expressionBlock({ statement })), checkpoint(), checkpoint({ retryAllowed: false })]) {
    for (const permissions of [[], ["execute_code"], ["read_code"], ["execute_code", "read_code"]]) {
      for (const box of [null, mailbox]) {
        // Twice: the second answer comes from the shared list the first one made.
        for (let i = 0; i < 2; i++) {
          const ctx = toolContext(pause, new Set(permissions), null, box);
          assert.deepEqual(offeredToolNames(ctx), TOOL_NAMES.filter((name) => unavailableReason(name, ctx) === null), `${pause.statement} ${permissions} ${box !== null}`);
        }
      }
    }
  }
});
