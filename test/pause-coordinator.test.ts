// The host side of pauses (src/invocation/pause-coordinator.ts) against messages shaped like
// the bridge's: a `pause_end` that interrupts a pause cancels its invocation and answers its
// waiting ops PauseEnded; one that arrives with a terminal op's answer (the bridge writes the two
// together) cancels nothing, and the invocation still sees its answer. A pause starts at once when
// no other invocation is settling, and after it when one is (the events of blocks stay in order).

import { test } from "node:test";
import assert from "node:assert/strict";
import { PauseCoordinator, type PauseContext } from "../src/invocation/pause-coordinator.js";
import type { HostMessage, OpMessage } from "../src/bridge/protocol.js";
import type { InvocationEnd } from "../src/invocation-record.js";
import type { FrameOpResult } from "../src/invocation/ports.js";
import { expressionBlock } from "./support/pause-requests.js";

/** A coordinator whose runner is `run`; `sent` collects what it sends the bridge. */
function coordinator(run: (context: PauseContext) => Promise<InvocationEnd>) {
  const sent: HostMessage[] = [];
  const failures: unknown[] = [];
  const coordinator = new PauseCoordinator(
    (message) => sent.push(message),
    run,
    (error) => failures.push(error),
  );
  return { coordinator, sent, failures };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test("a pause_end with the terminal op's answer leaves the invocation's signal alone; the answer arrives", async () => {
  let seen: { result: FrameOpResult; aborted: boolean } | null = null;
  const {
    coordinator: pauses,
    sent,
    failures,
  } = coordinator(async ({ frame, signal }) => {
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

/** A runner that logs when each invocation starts and ends; it ends a few microtasks after its finish is answered, as the orchestrator's chain does. */
function loggingRunner(log: string[]) {
  return async ({ pause, frame }: PauseContext): Promise<InvocationEnd> => {
    log.push(`start ${pause}`);
    await frame.op("finish", { outcome: { kind: "none" }, call_id: `c-${pause}` } as never);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    log.push(`end ${pause}`);
    return { status: "finished" };
  };
}

test("a pause read in one chunk with the previous block's answer starts after that invocation has ended", async () => {
  const log: string[] = [];
  const { coordinator: pauses, sent } = coordinator(loggingRunner(log));
  pauses.handle({ type: "pause", pause: "p1", mode: "syntax", request: expressionBlock() });
  await nextTurn();
  const op = sent.find((m): m is OpMessage => m.type === "op");
  assert.ok(op, "the finish op was sent");
  pauses.handle({ type: "result", pause: "p1", id: op.id, ok: true, value: { ok: true } });
  pauses.handle({ type: "pause_end", pause: "p1", interrupted: false });
  pauses.handle({ type: "pause", pause: "p2", mode: "syntax", request: expressionBlock() });
  await nextTurn();
  await nextTurn();
  assert.deepEqual(log, ["start p1", "end p1", "start p2"]);
});

test("a pause with no other invocation running starts without waiting for the event loop's next turn", async () => {
  const log: string[] = [];
  const { coordinator: pauses } = coordinator(loggingRunner(log));
  pauses.handle({ type: "pause", pause: "p1", mode: "syntax", request: expressionBlock() });
  for (let i = 0; i < 3; i++) await Promise.resolve();
  assert.deepEqual(log, ["start p1"]);
});
