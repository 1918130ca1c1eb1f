// Batch validation (SPEC §5.3) of the calls themselves, one rule per test, through the real loop:
// the scripted model sends a batch, then a valid terminal call; each test asserts that no call of
// the first batch reached the frame and the exact tool message every call of it got back. Covers
// call ids, unknown tools, permissions, argument JSON and schemas, result_ids, get_frame_code in
// each mode, and parseArguments.

import { test } from "node:test";
import assert from "node:assert/strict";
import { runInvocation } from "../src/invocation/orchestrator.js";
import { validateBatch } from "../src/invocation/batch-validation.js";
import { parseArguments } from "../src/invocation/call-arguments.js";
import { ScriptedModel, toolCall } from "./support/scripted-model.js";
import { FakeFrame } from "./support/fake-frame.js";
import { checkpoint, expressionBlock, settings } from "./support/pause-requests.js";
import { SKIPPED, error, probe, submit } from "./support/batch-submit.js";

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
  assert.deepEqual(await submit([toolCall("c1", "inspect", { handle: "ticket" })]), [
    { id: "c1", body: error('inspect: argument "handle" must be an object handle like "object-3"') },
  ]);
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
    {
      id: "c3",
      body: error(
        'finish: this block must produce a value (requires_result), so outcome kind "none" is not allowed; valid kinds here: "literal", "expression", "reference", "handle", "error"',
      ),
    },
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
