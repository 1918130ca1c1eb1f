// Helpers for the batch validation tests (test/batch-validation-*.test.ts): submitting one batch
// through the real loop with a scripted model and a fake frame (valid steps before it, a valid
// terminal call after it), which returns the tool message each call of the batch got and asserts
// that none of them ran; the messages a refused batch's calls get; and a harmless probe call.

import assert from "node:assert/strict";
import { runInvocation } from "../../src/invocation/orchestrator.js";
import type { ToolCall } from "../../src/model-port.js";
import type { PauseRequest } from "../../src/bridge/protocol.js";
import { ScriptedModel, toolCall, type ScriptStep } from "./scripted-model.js";
import { FakeFrame } from "./fake-frame.js";
import { expressionBlock, settings } from "./pause-requests.js";

export const SKIPPED = { status: "skipped", message: "batch rejected; no tool ran" };
export const error = (message: string) => ({ status: "error", message });

function closingCall(request: PauseRequest): ToolCall {
  if (request.mode === "recovery") return toolCall("z-end", "recover", { action: "reraise" });
  return toolCall("z-end", "finish", { outcome: request.requires_result ? { kind: "literal", value: "bug" } : { kind: "none" } });
}

/**
 * Sends `before` (valid steps), then `batch`, then a valid terminal call. Returns the tool
 * messages answering `batch` and the frame ops made after `before`.
 */
export async function submit(batch: ToolCall[], options: { request?: PauseRequest; permissions?: ReadonlySet<string>; before?: ScriptStep[] } = {}) {
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

export const probe = () => toolCall("p1", "get_binding", { name: "ticket" });
