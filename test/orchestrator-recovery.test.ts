// The model tool loop (SPEC §5), recovery decisions at a checkpoint, driven by a scripted model and a
// fake frame: complete, retry and reraise, the recovery prompt and tools, retry refused by the
// checkpoint, and an error outcome refused.

import { test } from "node:test";
import assert from "node:assert/strict";
import { RECOVERY_SYSTEM_PROMPT } from "../src/invocation/prompt.js";
import { toolCall } from "./support/scripted-model.js";
import { checkpoint } from "./support/pause-requests.js";
import { lastToolResults, run } from "./support/invocation-run.js";

test("recovery: complete with a value binds the target", async () => {
  const { end, model, frame } = await run({
    request: checkpoint(),
    steps: [{ calls: [toolCall("c1", "recover", { action: "complete", outcome: { kind: "literal", value: 12 } })] }],
  });
  assert.deepEqual(end, { status: "finished", action: "complete" });
  assert.deepEqual(frame.ops, [{ name: "recover", args: { action: "complete", outcome: { kind: "literal", value: 12 }, call_id: "c1" } }]);
  const request = model.requests[0].request;
  assert.deepEqual(
    request.tools.map((t) => t.function.name),
    ["evaluate", "execute", "get_binding", "set_binding", "inspect", "get_frame_code", "frames", "recover"],
  );
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
    message:
      'recover: action "retry" is not allowed for this checkpoint (a compound statement, or the traceback passes through another project frame); valid actions: "complete", "reraise"',
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
