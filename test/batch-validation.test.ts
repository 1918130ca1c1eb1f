// Batch validation (SPEC §5.3), one rule per test, through the real loop: the scripted model sends
// a batch, then a valid terminal call; each test asserts that no call of the first batch reached
// the frame and the exact tool message every call of it got back.

import { test } from "node:test";
import assert from "node:assert/strict";
import { runInvocation } from "../src/recovery/invocation/orchestrator.js";
import { parseArguments, validateBatch } from "../src/recovery/invocation/batch-validation.js";
import type { ToolCall } from "../src/model-port.js";
import type { PauseRequest } from "../src/recovery/bridge/protocol.js";
import { ScriptedModel, toolCall, type ScriptStep } from "./support/scripted-model.js";
import { FakeFrame } from "./support/fake-frame.js";
import { checkpoint, expressionBlock, settings, statementBlock } from "./support/pause-requests.js";

const SKIPPED = { status: "skipped", message: "batch rejected; no tool ran" };
const error = (message: string) => ({ status: "error", message });

function closingCall(request: PauseRequest): ToolCall {
  if (request.mode === "recovery") return toolCall("z-end", "recover", { action: "reraise" });
  return toolCall("z-end", "finish", { outcome: request.requires_result ? { kind: "literal", value: "bug" } : { kind: "none" } });
}

/**
 * Sends `before` (valid steps), then `batch`, then a valid terminal call. Returns the tool
 * messages answering `batch` and the frame ops made after `before`.
 */
async function submit(batch: ToolCall[], options: { request?: PauseRequest; permissions?: ReadonlySet<string>; before?: ScriptStep[] } = {}) {
  const request = options.request ?? expressionBlock();
  const before = options.before ?? [];
  const model = new ScriptedModel([...before, { calls: batch }, { calls: [closingCall(request)] }]);
  const frame = new FakeFrame();
  let opsBefore = 0;
  const { end, stats } = await runInvocation({
    id: "inv",
    request,
    settings: settings(options.permissions ? { permissions: options.permissions } : {}),
    model,
    frame: {
      op: (name, args) => {
        if (model.requests.length <= before.length) opsBefore += 1;
        return frame.op(name, args);
      },
    },
  });
  assert.deepEqual(end.status, "finished", JSON.stringify(end));
  assert.equal(stats.invalid_batches, 1);
  const answered = model.requests[before.length + 1].request.messages.slice(-batch.length);
  const results = answered.map((m) => {
    assert.equal(m.role, "tool");
    return { id: (m as { tool_call_id: string }).tool_call_id, body: JSON.parse((m as { content: string }).content) };
  });
  assert.deepEqual(frame.names().slice(opsBefore), [closingCall(request).function.name], "no call of the rejected batch ran");
  return results;
}

const probe = () => toolCall("p1", "get_binding", { name: "ticket" });

test("an empty call id is refused", async () => {
  assert.deepEqual(await submit([probe(), toolCall("", "finish", { outcome: { kind: "literal", value: "bug" } })]), [
    { id: "p1", body: SKIPPED },
    { id: "", body: error("tool call id is empty; every call needs a unique id") },
  ]);
});

test("a call id used by an earlier response is refused", async () => {
  const results = await submit([toolCall("c1", "frames", {})], { before: [{ calls: [toolCall("c1", "get_binding", { name: "ticket" })] }] });
  assert.deepEqual(results, [{ id: "c1", body: error('tool call id "c1" was used by an earlier response of this invocation; use a new id') }]);
});

test("a call id repeated within the batch is refused", async () => {
  assert.deepEqual(await submit([toolCall("c1", "frames", {}), toolCall("c1", "get_binding", { name: "ticket" })]), [
    { id: "c1", body: SKIPPED },
    { id: "c1", body: error('tool call id "c1" appears twice in this response; every call needs a unique id') },
  ]);
});

test("an unknown tool is refused with the available ones", async () => {
  assert.deepEqual(await submit([toolCall("c1", "read_file", { path: "x" }), probe()]), [
    { id: "c1", body: error('unknown tool "read_file"; available tools: "evaluate", "execute", "get_binding", "set_binding", "inspect", "frames", "finish"') },
    { id: "p1", body: SKIPPED },
  ]);
});

test("a terminal tool of the other mode is refused", async () => {
  assert.deepEqual(await submit([toolCall("c1", "recover", { action: "reraise" })]), [
    {
      id: "c1",
      body: error('tool "recover" is for recovery mode only; end this AI block with "finish"; available tools: "evaluate", "execute", "get_binding", "set_binding", "inspect", "frames", "finish"'),
    },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "none" } })], { request: checkpoint() }), [
    {
      id: "c1",
      body: error('tool "finish" ends AI blocks only; in recovery mode end with "recover"; available tools: "evaluate", "execute", "get_binding", "set_binding", "inspect", "get_frame_code", "frames", "recover"'),
    },
  ]);
});

test("a call needing a permission the profile does not grant ends the invocation before anything runs (SPEC §9)", async () => {
  const model = new ScriptedModel([{ calls: [probe(), toolCall("c1", "execute", { code: "x = 1" })] }]);
  const frame = new FakeFrame();
  const { end } = await runInvocation({
    id: "inv",
    request: expressionBlock(),
    settings: settings({ permissions: new Set(["network"]), profile: { name: "strict", permissionsSetting: "profiles.strict.permissions in aiython.toml" } }),
    model,
    frame,
  });
  const reason =
    'the model called execute, which needs the execute_code permission; profile "strict" does not grant it (to allow it, add "execute_code" to profiles.strict.permissions in aiython.toml)';
  assert.deepEqual(end, { status: "failed", reason, permission: "execute_code" });
  assert.deepEqual(frame.ops, [], "not even the permitted call of the batch ran");
  assert.equal(model.requests.length, 1);
});

test("arguments that are not a JSON object string are refused", async () => {
  const [notJson] = await submit([toolCall("c1", "evaluate", "{code: 1}")]);
  assert.equal(notJson.body.status, "error");
  assert.match(notJson.body.message, /^evaluate: arguments are not valid JSON \(.+\); send one JSON object \(NaN and Infinity are not JSON\)$/);
  assert.deepEqual(await submit([toolCall("c1", "evaluate", '["1"]')]), [{ id: "c1", body: error("evaluate: arguments must be a JSON object, got an array") }]);
  const [nan] = await submit([toolCall("c1", "finish", '{"outcome":{"kind":"literal","value":NaN}}')]);
  assert.match(nan.body.message, /not valid JSON/);
});

test("numbers JSON.parse cannot keep exactly are refused", async () => {
  assert.deepEqual(await submit([toolCall("c1", "finish", '{"outcome":{"kind":"literal","value":1e400}}')]), [
    { id: "c1", body: error("finish: the number 1e400 is out of range for JSON; send it as a string or compute it with code") },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", '{"outcome":{"kind":"literal","value":12345678901234567890}}')]), [
    { id: "c1", body: error("finish: the integer 12345678901234567890 is too large to pass exactly (beyond 2^53); send it as a string or compute it with code") },
  ]);
});

test("duplicate keys in one JSON object are refused", async () => {
  assert.deepEqual(await submit([toolCall("c1", "execute", '{"code":"a = 1","code":"a = 2"}')]), [
    { id: "c1", body: error('execute: arguments repeat the key "code" in one object; send each key once') },
  ]);
});

test("arguments must match the tool's schema", async () => {
  assert.deepEqual(await submit([toolCall("c1", "evaluate", { result_id: "r" })]), [{ id: "c1", body: error('evaluate: arguments: missing required "code"') }]);
  assert.deepEqual(await submit([toolCall("c1", "evaluate", { code: "1", timeout: 3 })]), [
    { id: "c1", body: error('evaluate: arguments: unknown "timeout"; valid: "code", "result_id"') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "frames", { all: true })]), [{ id: "c1", body: error('frames: arguments: unknown "all"; this takes no arguments') }]);
  assert.deepEqual(await submit([toolCall("c1", "execute", { code: 42 })]), [{ id: "c1", body: error('execute: argument "code" must be string') }]);
  assert.deepEqual(await submit([toolCall("c1", "inspect", { handle: "object-1", depth: 4 })]), [{ id: "c1", body: error('inspect: argument "depth" must be <= 3') }]);
  assert.deepEqual(await submit([toolCall("c1", "inspect", { handle: "ticket" })]), [{ id: "c1", body: error('inspect: argument "handle" must be an object handle like "object-3"') }]);
  assert.deepEqual(await submit([toolCall("c1", "recover", { action: "skip" })], { request: checkpoint() }), [
    { id: "c1", body: error('recover: argument "action" must be one of "complete", "retry", "reraise"') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "guess" } })]), [
    { id: "c1", body: error('finish: argument "outcome.kind" must be one of "literal", "expression", "reference", "handle", "none", "error"') },
  ]);
});

test("result_ids must be unique and must not equal another call's id", async () => {
  assert.deepEqual(await submit([toolCall("c1", "evaluate", { code: "1", result_id: "r" }), toolCall("c2", "get_binding", { name: "ticket", result_id: "r" })]), [
    { id: "c1", body: SKIPPED },
    { id: "c2", body: error('get_binding: result_id "r" is already used by call "c1" in this response; choose a unique one') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "evaluate", { code: "1", result_id: "c2" }), toolCall("c2", "frames", {})]), [
    { id: "c1", body: error('evaluate: result_id "c2" equals the id of another call in this response, so a reference to it would be ambiguous; choose another') },
    { id: "c2", body: SKIPPED },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "evaluate", { code: "1", result_id: "" })]), [
    { id: "c1", body: error('evaluate: result_id must not be empty; leave it out or choose a name like "r1"') },
  ]);
});

test("a terminal call must be the last and only terminal", async () => {
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "literal", value: "bug" } }), probe()]), [
    { id: "c1", body: error("finish: finish ends the invocation, so it must be the last call of the response; 1 call(s) follow it") },
    { id: "p1", body: SKIPPED },
  ]);
  const twice = await submit([toolCall("c1", "finish", { outcome: { kind: "literal", value: "bug" } }), toolCall("c2", "finish", { outcome: { kind: "literal", value: "bug" } })]);
  assert.deepEqual(twice.map((r) => r.body.status), ["error", "skipped"]);
});

test("retry is refused when the checkpoint does not allow it", async () => {
  assert.deepEqual(await submit([toolCall("c1", "recover", { action: "retry" })], { request: checkpoint({ retryAllowed: false }) }), [
    {
      id: "c1",
      body: error('recover: action "retry" is not allowed for this checkpoint (a compound statement, or the traceback passes through another project frame); valid actions: "complete", "reraise"'),
    },
  ]);
});

test("an outcome value is refused where there is no target", async () => {
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "literal", value: "Hello" } })], { request: statementBlock() }), [
    { id: "c1", body: error('finish: this block is a statement without a target, so it takes no value; end with {"kind":"none"} after making its effects, or {"kind":"error"}') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "recover", { action: "complete", outcome: { kind: "literal", value: 12 } })], { request: checkpoint({ target: null }) }), [
    { id: "c1", body: error(`recover: this checkpoint's statement does not assign one name, so complete takes no outcome value; omit "outcome"`) },
  ]);
});

test("retry and reraise take no outcome", async () => {
  assert.deepEqual(await submit([toolCall("c1", "recover", { action: "retry", outcome: { kind: "literal", value: 12 } })], { request: checkpoint() }), [
    { id: "c1", body: error('recover: action "retry" takes no outcome; only "complete" takes one') },
  ]);
});

test("an outcome has exactly the fields of its kind", async () => {
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "literal" } })]), [{ id: "c1", body: error('finish: outcome kind "literal" needs the field "value"') }]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "handle", id: "object-1", value: "bug" } })]), [
    { id: "c1", body: error('finish: outcome kind "handle" takes only "id"; remove "value"') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "none", reason: "done" } })], { request: statementBlock() }), [
    { id: "c1", body: error('finish: outcome kind "none" takes no other field; remove "reason"') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "handle", id: "ticket" } })]), [
    { id: "c1", body: error('finish: outcome kind "handle" needs an id like "object-3" taken from an earlier tool result; got "ticket" (for the value of a call in this response use kind "reference")') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "error", reason: " " } })]), [
    { id: "c1", body: error('finish: outcome kind "error" needs a non-empty "reason"') },
  ]);
});

test("none is refused when the block requires a result", async () => {
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "none" } })]), [
    { id: "c1", body: error('finish: this block must produce a value (requires_result), so outcome kind "none" is not allowed; valid kinds here: "literal", "expression", "reference", "handle", "error"') },
  ]);
});

test("a reference must name an earlier value-producing call of the same response", async () => {
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "reference", id: "r1" } })]), [
    {
      id: "c1",
      body: error('finish: outcome reference "r1" does not name an earlier evaluate or get_binding call of this response; no earlier call of this response produces a value; call evaluate or get_binding before finishing in the same response, or use kind "handle" with an object-N from an earlier result'),
    },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "execute", { code: "x = 1" }), toolCall("c2", "evaluate", { code: "x", result_id: "r" }), toolCall("c3", "finish", { outcome: { kind: "reference", id: "c1" } })]), [
    { id: "c1", body: SKIPPED },
    { id: "c2", body: SKIPPED },
    { id: "c3", body: error('finish: outcome reference "c1" names a execute call, which produces no value; valid ids: "c2", "r"') },
  ]);
  const earlierResponse = await submit([toolCall("c2", "finish", { outcome: { kind: "reference", id: "r" } })], {
    before: [{ calls: [toolCall("c1", "evaluate", { code: "1", result_id: "r" })] }],
  });
  assert.equal(earlierResponse[0].body.status, "error", "a reference reaches only calls of its own response");
});

test("recover cannot use an error outcome", async () => {
  assert.deepEqual(await submit([toolCall("c1", "recover", { action: "complete", outcome: { kind: "error", reason: "no" } })], { request: checkpoint() }), [
    { id: "c1", body: error('recover: recover cannot use outcome kind "error"; to give up, call recover with action "reraise" and an explanation') },
  ]);
});

test("get_frame_code is refused in syntax mode (the block's code is code_context), with either frame", async () => {
  const refused = error(
    'tool "get_frame_code" is for recovery mode only; the block\'s code is in code_context; available tools: "evaluate", "execute", "get_binding", "set_binding", "inspect", "frames", "finish"',
  );
  assert.deepEqual(await submit([toolCall("c1", "get_frame_code", { frame: "origin" })]), [{ id: "c1", body: refused }]);
  assert.deepEqual(await submit([toolCall("c1", "get_frame_code", {})]), [{ id: "c1", body: refused }]);
});

test("in recovery mode get_frame_code takes either frame, and nothing else", async () => {
  assert.deepEqual(await submit([toolCall("c1", "get_frame_code", { frame: "elsewhere" })], { request: checkpoint() }), [
    { id: "c1", body: error('get_frame_code: argument "frame" must be one of "active", "origin"') },
  ]);
  for (const frame of ["active", "origin"]) {
    const verdict = validateBatch([toolCall("c1", "get_frame_code", { frame })], { request: checkpoint(), permissions: settings().permissions, usedCallIds: new Set() });
    assert.equal(verdict.valid, true, frame);
  }
});

test("every failing call of a batch gets its own message", async () => {
  assert.deepEqual(await submit([toolCall("c1", "evaluate", {}), probe(), toolCall("c3", "finish", { outcome: { kind: "none" } })]), [
    { id: "c1", body: error('evaluate: arguments: missing required "code"') },
    { id: "p1", body: SKIPPED },
    { id: "c3", body: error('finish: this block must produce a value (requires_result), so outcome kind "none" is not allowed; valid kinds here: "literal", "expression", "reference", "handle", "error"') },
  ]);
});

test("parseArguments accepts an empty string as {} and nested duplicate-free objects", () => {
  assert.deepEqual(parseArguments(""), { ok: true, value: {} });
  assert.deepEqual(parseArguments('{"a":{"k":1},"b":{"k":[{"k":2},{"k":3}]},"s":"{\\"a\\":1,\\"a\\":2}"}'), {
    ok: true,
    value: { a: { k: 1 }, b: { k: [{ k: 2 }, { k: 3 }] }, s: '{"a":1,"a":2}' },
  });
  assert.deepEqual(parseArguments('{"v":[1.5e300, -9007199254740991, 1e20]}'), { ok: true, value: { v: [1.5e300, -9007199254740991, 1e20] } });
  assert.equal(parseArguments('{"a":{"k":1,"k":2}}').ok, false);
});
