// The invocation's deadline (invocation/deadline.ts): races end with their work's value,
// or `stopped` when the deadline passes or the caller cancels; the one timer it keeps for the
// whole invocation stops the signal even between races, and a deadline beyond a timer's range
// does not stop at once; held, it stops counting.

import { test } from "node:test";
import assert from "node:assert/strict";
import { Deadline } from "../src/invocation/deadline.js";

const never = () => new Promise<never>(() => {});
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value));

test("races end with their work's value until the deadline, then stop with timeout", async () => {
  const deadline = new Deadline(Date.now() + 60, undefined, Date.now);
  try {
    for (let i = 0; i < 5; i++) assert.equal(await deadline.race(() => Promise.resolve(i)), i);
    assert.deepEqual(await deadline.race(never), { stopped: "timeout" });
    assert.equal(deadline.signal.aborted, true);
    let ran = false;
    assert.deepEqual(await deadline.race(async () => (ran = true)), { stopped: "timeout" });
    assert.equal(ran, false, "work is not started once the invocation has stopped");
  } finally {
    deadline.dispose();
  }
});

test("the deadline stops the signal between races too", async () => {
  const deadline = new Deadline(Date.now() + 30, undefined, Date.now);
  try {
    assert.equal(await deadline.race(() => Promise.resolve("first")), "first");
    await after(80, null);
    assert.equal(deadline.signal.aborted, true);
  } finally {
    deadline.dispose();
  }
});

test("a caller's abort stops the race in flight as cancelled", async () => {
  const outer = new AbortController();
  const deadline = new Deadline(Date.now() + 60_000, outer.signal, Date.now);
  try {
    const racing = deadline.race(never);
    outer.abort();
    assert.deepEqual(await racing, { stopped: "cancelled" });
    assert.equal(deadline.signal.aborted, true);
    assert.deepEqual(await deadline.race(() => Promise.resolve(1)), { stopped: "cancelled" });
  } finally {
    deadline.dispose();
  }
});

test("a deadline beyond the timer's range does not stop the work", async () => {
  const deadline = new Deadline(Date.now() + 40 * 24 * 3600 * 1000, undefined, Date.now);
  try {
    assert.equal(await deadline.race(() => after(30, "done")), "done");
    assert.equal(deadline.signal.aborted, false);
  } finally {
    deadline.dispose();
  }
});

test("dispose clears the timer: a disposed deadline never aborts its signal", async () => {
  const deadline = new Deadline(Date.now() + 20, undefined, Date.now);
  assert.equal(await deadline.race(() => Promise.resolve(1)), 1);
  deadline.dispose();
  await after(60, null);
  assert.equal(deadline.signal.aborted, false);
});

test("held (a request waiting in a batch, SPEC §14), the deadline does not pass; released, it moves later by the time held", async () => {
  const deadline = new Deadline(Date.now() + 60, undefined, Date.now);
  try {
    const release = deadline.hold();
    const at = deadline.at;
    assert.equal(await deadline.race(() => after(150, "answered while held")), "answered while held");
    assert.equal(deadline.signal.aborted, false);
    release();
    release(); // a second release changes nothing
    assert.ok(deadline.at >= at + 140, `moved by the time held: ${deadline.at - at} ms`);
    assert.deepEqual(await deadline.race(never), { stopped: "timeout" });
  } finally {
    deadline.dispose();
  }
});
