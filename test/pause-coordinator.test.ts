// The host side of pauses (src/recovery/bridge/pause-coordinator.ts) against messages shaped like
// the bridge's: a `pause_end` that interrupts a pause cancels its invocation and answers its
// waiting ops PauseEnded; one that arrives with a terminal op's answer (the bridge writes the two
// together) cancels nothing, and the invocation still sees its answer.

import { test } from "node:test";
import assert from "node:assert/strict";
import { PauseCoordinator, type PauseContext } from "../src/recovery/bridge/pause-coordinator.js";
import type { HostMessage, OpMessage } from "../src/recovery/bridge/protocol.js";
import type { InvocationEnd } from "../src/invocation-record.js";
import type { FrameOpResult } from "../src/recovery/invocation/ports.js";
import { expressionBlock } from "./support/pause-requests.js";

/** A coordinator whose runner is `run`; `sent` collects what it sends the bridge. */
function coordinator(run: (context: PauseContext) => Promise<InvocationEnd>) {
  const sent: HostMessage[] = [];
  const failures: unknown[] = [];
  const coordinator = new PauseCoordinator((message) => sent.push(message), run, (error) => failures.push(error));
  return { coordinator, sent, failures };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test("a pause_end with the terminal op's answer leaves the invocation's signal alone; the answer arrives", async () => {
  let seen: { result: FrameOpResult; aborted: boolean } | null = null;
  const { coordinator: pauses, sent, failures } = coordinator(async ({ frame, signal }) => {
    const result = await frame.op("finish", { outcome: { kind: "none" }, call_id: "c1" } as never);
    seen = { result, aborted: signal.aborted };
    return { status: "finished" };
  });
  pauses.handle({ type: "pause", pause: "p1", mode: "syntax", request: expressionBlock() });
  await nextTurn();
  await nextTurn();
  const op = sent.find((m): m is OpMessage => m.type === "op");
  assert.ok(op, "the finish op was sent");
  // One read of the bridge's single write: the answer, then pause_end.
  pauses.handle({ type: "result", pause: "p1", id: op.id, ok: true, value: { ok: true } });
  pauses.handle({ type: "pause_end", pause: "p1", interrupted: false });
  await pauses.settled();
  assert.deepEqual(seen, { result: { ok: true, value: { ok: true } }, aborted: false });
  assert.deepEqual(failures, []);
});

test("a pause_end without a terminal answer cancels the invocation and answers its waiting op PauseEnded", async () => {
  let seen: { result: FrameOpResult; aborted: boolean } | null = null;
  const { coordinator: pauses, sent } = coordinator(async ({ frame, signal }) => {
    const result = await frame.op("evaluate", { code: "1", call_id: "c1" } as never);
    seen = { result, aborted: signal.aborted };
    return { status: "failed", reason: "cancelled" };
  });
  pauses.handle({ type: "pause", pause: "p1", mode: "syntax", request: expressionBlock() });
  await nextTurn();
  await nextTurn();
  assert.ok(sent.some((m) => m.type === "op"));
  pauses.handle({ type: "pause_end", pause: "p1", interrupted: true });
  await pauses.settled();
  assert.equal(seen!.aborted, true);
  assert.equal(seen!.result.ok, false);
  assert.equal(!seen!.result.ok && seen!.result.error.type, "PauseEnded");
  assert.equal(sent.filter((m) => m.type === "op" && m.op === "fail").length, 0, "nothing is sent to a pause that has ended");
});
