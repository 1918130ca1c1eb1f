// The tool loop's record of calls with effects (SPEC §11.2), driven by a scripted model and a fake
// frame: the journal is asked before `execute` and `set_binding` run (never before reads or
// terminal calls), with the answer's place in the journal, and told when each ended; a call the
// journal calls uncertain does not reach the frame, and the model gets why as a tool error.

import { test } from "node:test";
import assert from "node:assert/strict";
import { runInvocation } from "../src/invocation/orchestrator.js";
import type { EffectCall } from "../src/invocation/ports.js";
import type { ModelResponse } from "../src/model-port.js";
import { FakeFrame } from "./support/fake-frame.js";
import { lastToolResults } from "./support/invocation-run.js";
import { expressionBlock, settings, statementBlock } from "./support/pause-requests.js";
import { ScriptedModel, toolCall } from "./support/scripted-model.js";

function answer(calls: ReturnType<typeof toolCall>[], seq: number): ModelResponse {
  return { message: { content: null, tool_calls: calls }, requestBytes: 10, providerSeconds: 0, route: "r", exchange: { seq, from: { run: 3, seq: seq + 10 } } };
}

test("the journal hears of each call with effects before it runs and after it ended, with the answer's place", async () => {
  const log: string[] = [];
  const asked: EffectCall[] = [];
  const frame = new FakeFrame();
  const model = new ScriptedModel([
    () => answer([toolCall("c1", "get_binding", { name: "items" }), toolCall("c2", "execute", { code: "items.append(1)" })], 1),
    () => answer([toolCall("c3", "set_binding", { name: "n", handle: "object-1" }), toolCall("c4", "finish", { outcome: { kind: "none" } })], 2),
  ]);
  const original = frame.op.bind(frame);
  frame.op = (name, args) => {
    log.push(`frame ${name}`);
    return original(name, args);
  };
  const { end } = await runInvocation({
    id: "inv-1",
    request: statementBlock(),
    settings: settings(),
    model,
    frame,
    effects: {
      async starting(call) {
        asked.push(call);
        log.push(`start ${call.tool}`);
        return { run: true, ended: () => log.push(`end ${call.tool}`) };
      },
    },
  });
  assert.deepEqual(end, { status: "finished" });
  assert.deepEqual(log, ["frame get_binding", "start execute", "frame execute", "end execute", "start set_binding", "frame set_binding", "end set_binding", "frame finish"]);
  assert.deepEqual(
    asked.map((call) => [call.tool, call.callId, call.exchange?.seq, call.block]),
    [
      ["execute", "c2", 1, "greet.py:3"],
      ["set_binding", "c3", 2, "greet.py:3"],
    ],
  );
});

test("an uncertain effect never reaches the frame; the model is told why and the loop goes on", async () => {
  const frame = new FakeFrame();
  const model = new ScriptedModel([
    () => answer([toolCall("c1", "execute", { code: "send_mail()" })], 1),
    { calls: [toolCall("c2", "finish", { outcome: { kind: "literal", value: "bug" } })] },
  ]);
  const { end, stats } = await runInvocation({
    id: "inv-1",
    request: expressionBlock(),
    settings: settings(),
    model,
    frame,
    effects: { starting: async () => ({ run: false, message: "started by run 3, never seen to end" }) },
  });
  assert.deepEqual(end, { status: "finished" });
  assert.deepEqual(frame.names(), ["finish"]);
  assert.deepEqual(lastToolResults(model.requests[1].request), [{ id: "c1", body: { status: "error", error: "UncertainEffect", message: "started by run 3, never seen to end" } }]);
  assert.equal(stats.tool_failures, 1);
});
