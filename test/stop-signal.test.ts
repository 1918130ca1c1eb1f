// The host's own stop signal (src/stop-signal.ts): what an AbortController's signal does for the
// host's waits — listeners run once, in order, on the first abort; removed ones never; the reason
// is what abort was given, else an AbortError — and the deadline's AbortSignal for fetch follows
// it (invocation/deadline.ts).

import { test } from "node:test";
import assert from "node:assert/strict";
import { Stopper } from "../src/stop-signal.js";
import { Deadline } from "../src/invocation/deadline.js";

test("listeners run once, in the order added, on the first abort only", () => {
  const stopper = new Stopper();
  const seen: string[] = [];
  stopper.signal.addEventListener("abort", () => seen.push("a"), { once: true });
  stopper.signal.addEventListener("abort", () => seen.push("b"));
  assert.equal(stopper.signal.aborted, false);
  stopper.abort("why");
  stopper.abort("again");
  assert.deepEqual(seen, ["a", "b"]);
  assert.equal(stopper.signal.aborted, true);
  assert.equal(stopper.signal.reason, "why");
  stopper.signal.addEventListener("abort", () => seen.push("late"));
  assert.deepEqual(seen, ["a", "b"], "a listener added after the abort is not called, as with an AbortSignal");
});

test("a removed listener is not called, even when an earlier listener removes it during the abort", () => {
  const stopper = new Stopper();
  const seen: string[] = [];
  const gone = () => seen.push("gone");
  const later = () => seen.push("later");
  stopper.signal.addEventListener("abort", gone);
  stopper.signal.removeEventListener("abort", gone);
  stopper.signal.addEventListener("abort", () => {
    seen.push("first");
    stopper.signal.removeEventListener("abort", later);
  });
  stopper.signal.addEventListener("abort", later);
  stopper.abort();
  assert.deepEqual(seen, ["first"]);
});

test("the reason defaults to an AbortError, as AbortController.abort() gives", () => {
  const stopper = new Stopper();
  stopper.abort();
  const reason = stopper.signal.reason as DOMException;
  assert.equal(reason.name, "AbortError");
  const real = new AbortController();
  real.abort();
  assert.equal(reason.message, (real.signal.reason as DOMException).message);
});

test("the deadline's AbortSignal aborts with its signal, with the same reason, made before or after", async () => {
  const outer = new Stopper();
  const deadline = new Deadline(Date.now() + 60_000, outer.signal, Date.now);
  try {
    const early = deadline.abortSignal;
    assert.ok(early instanceof AbortSignal);
    assert.equal(early.aborted, false);
    outer.abort();
    assert.equal(deadline.signal.aborted, true);
    assert.equal(early.aborted, true);
    assert.equal(early.reason, deadline.signal.reason);
    const fresh = new Deadline(Date.now() + 60_000, outer.signal, Date.now);
    assert.equal(fresh.abortSignal.aborted, false, "a deadline made after its caller cancelled: the stop comes at its first race");
    assert.deepEqual(await fresh.race(() => Promise.resolve(1)), { stopped: "cancelled" });
    fresh.dispose();
  } finally {
    deadline.dispose();
  }
});
