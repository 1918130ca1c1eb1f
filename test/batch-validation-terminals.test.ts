// Batch validation (SPEC §5.3) of terminal calls, one rule per test, through the real loop: the
// scripted model sends a batch, then a valid terminal call; each test asserts that no call of the
// first batch reached the frame and the exact tool message every call of it got back. Covers the
// terminal tool of each mode, its place in the batch, retry where the checkpoint refuses it, and the
// outcomes finish and recover may take.

import { test } from "node:test";
import assert from "node:assert/strict";
import { toolCall } from "./support/scripted-model.js";
import { checkpoint, statementBlock } from "./support/pause-requests.js";
import { SKIPPED, error, probe, submit } from "./support/batch-submit.js";

test("a terminal tool of the other mode is refused", async () => {
  assert.deepEqual(await submit([toolCall("c1", "recover", { action: "reraise" })]), [
    {
      id: "c1",
      body: error(
        'tool "recover" is for recovery mode only; end this AI block with "finish"; available tools: "evaluate", "execute", "get_binding", "set_binding", "inspect", "frames", "finish"',
      ),
    },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "none" } })], { request: checkpoint() }), [
    {
      id: "c1",
      body: error(
        'tool "finish" ends AI blocks only; in recovery mode end with "recover"; available tools: "evaluate", "execute", "get_binding", "set_binding", "inspect", "get_frame_code", "frames", "recover"',
      ),
    },
  ]);
});

test("a terminal call must be the last and only terminal", async () => {
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "literal", value: "bug" } }), probe()]), [
    { id: "c1", body: error("finish: finish ends the invocation, so it must be the last call of the response; 1 call(s) follow it") },
    { id: "p1", body: SKIPPED },
  ]);
  const twice = await submit([toolCall("c1", "finish", { outcome: { kind: "literal", value: "bug" } }), toolCall("c2", "finish", { outcome: { kind: "literal", value: "bug" } })]);
  assert.deepEqual(
    twice.map((r) => r.body.status),
    ["error", "skipped"],
  );
});

test("retry is refused when the checkpoint does not allow it", async () => {
  assert.deepEqual(await submit([toolCall("c1", "recover", { action: "retry" })], { request: checkpoint({ retryAllowed: false }) }), [
    {
      id: "c1",
      body: error(
        'recover: action "retry" is not allowed for this checkpoint (a compound statement, or the traceback passes through another project frame); valid actions: "complete", "reraise"',
      ),
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
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "literal" } })]), [
    { id: "c1", body: error('finish: outcome kind "literal" needs the field "value"') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "handle", id: "object-1", value: "bug" } })]), [
    { id: "c1", body: error('finish: outcome kind "handle" takes only "id"; remove "value"') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "none", reason: "done" } })], { request: statementBlock() }), [
    { id: "c1", body: error('finish: outcome kind "none" takes no other field; remove "reason"') },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "handle", id: "ticket" } })]), [
    {
      id: "c1",
      body: error(
        'finish: outcome kind "handle" needs an id like "object-3" taken from an earlier tool result; got "ticket" (for the value of a call in this response use kind "reference")',
      ),
    },
  ]);
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "error", reason: " " } })]), [
    { id: "c1", body: error('finish: outcome kind "error" needs a non-empty "reason"') },
  ]);
});

test("none is refused when the block requires a result", async () => {
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "none" } })]), [
    {
      id: "c1",
      body: error(
        'finish: this block must produce a value (requires_result), so outcome kind "none" is not allowed; valid kinds here: "literal", "expression", "reference", "handle", "error"',
      ),
    },
  ]);
});

test("a reference must name an earlier value-producing call of the same response", async () => {
  assert.deepEqual(await submit([toolCall("c1", "finish", { outcome: { kind: "reference", id: "r1" } })]), [
    {
      id: "c1",
      body: error(
        'finish: outcome reference "r1" does not name an earlier evaluate or get_binding call of this response; no earlier call of this response produces a value; call evaluate or get_binding before finishing in the same response, or use kind "handle" with an object-N from an earlier result',
      ),
    },
  ]);
  assert.deepEqual(
    await submit([
      toolCall("c1", "execute", { code: "x = 1" }),
      toolCall("c2", "evaluate", { code: "x", result_id: "r" }),
      toolCall("c3", "finish", { outcome: { kind: "reference", id: "c1" } }),
    ]),
    [
      { id: "c1", body: SKIPPED },
      { id: "c2", body: SKIPPED },
      { id: "c3", body: error('finish: outcome reference "c1" names a execute call, which produces no value; valid ids: "c2", "r"') },
    ],
  );
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
