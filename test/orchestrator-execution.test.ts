// The model tool loop (SPEC §5), executing the model's calls, driven by a scripted model and a fake
// frame: execution order, references by result_id and call id, tool errors sent back for repair, a
// failing call skipping the rest of its batch, error outcomes, the execute_code permission, and the
// raw argument text terminal ops carry.

import { test } from "node:test";
import assert from "node:assert/strict";
import { runInvocation } from "../src/invocation/orchestrator.js";
import { ScriptedModel, toolCall } from "./support/scripted-model.js";
import { FakeFrame, opError } from "./support/fake-frame.js";
import { expressionBlock, settings, statementBlock } from "./support/pause-requests.js";
import { lastToolResults, literal, literalTypeCheck, run } from "./support/invocation-run.js";

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

test("a failing call skips the rest of its batch, keeping earlier effects", async () => {
  const { model, frame } = await run({
    handlers: { evaluate: () => opError("ZeroDivisionError", "division by zero") },
    steps: [
      {
        calls: [
          toolCall("c1", "execute", { code: "n = 1" }),
          toolCall("c2", "evaluate", { code: "1/0", result_id: "r" }),
          toolCall("c3", "finish", { outcome: { kind: "reference", id: "r" } }),
        ],
      },
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
    reason:
      'the model ended with finish and an expression outcome, which needs the execute_code permission; profile "default" does not grant it (to allow it, add "execute_code" to permissions in aiython.toml)',
  });
  const tools = model.requests[0].request.tools;
  assert.deepEqual(
    tools.map((t) => t.function.name),
    ["get_binding", "set_binding", "inspect", "frames", "finish"],
  );
  const finish = tools.find((t) => t.function.name === "finish")!.function.parameters as { properties: { outcome: { properties: Record<string, { enum?: string[] }> } } };
  assert.deepEqual(finish.properties.outcome.properties.kind.enum, ["literal", "reference", "handle", "error"]);
  assert.equal("code" in finish.properties.outcome.properties, false);
  assert.equal(model.requests.length, 1);
  assert.deepEqual(frame.names(), [], "the denied call never reached the frame");
  assert.deepEqual(JSON.parse(model.requests[0].request.messages[1].content as string).permissions, { execute_code: false });
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
