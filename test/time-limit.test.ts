// The time limit's clock (SPEC §9): waits for the model or for an --approve answer hold it, even
// when several overlap, and the limit fires once, only when the counted time reaches it.

import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { TimeLimit } from "../src/run/time-limit.js";

function clock() {
  let now = 0;
  mock.timers.enable({ apis: ["setTimeout"] });
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
      mock.timers.tick(ms);
    },
  };
}

test("held time is not counted, overlapping holds included, and the limit fires once at the counted time", (t) => {
  t.after(() => mock.timers.reset());
  const time = clock();
  let fired = 0;
  const limit = new TimeLimit(10, () => (fired += 1), time.now);
  time.advance(5_000);
  assert.equal(limit.elapsedSeconds(), 0, "nothing counts before start");
  limit.start();
  time.advance(4_000);
  const model = limit.hold();
  const approval = limit.hold();
  time.advance(60_000);
  model();
  model();
  time.advance(30_000);
  assert.equal(limit.elapsedSeconds(), 4, "still held by the other wait; a release twice counts once");
  assert.equal(fired, 0);
  approval();
  time.advance(5_999);
  assert.equal(fired, 0);
  time.advance(1);
  assert.equal(fired, 1);
  time.advance(60_000);
  limit.hold()();
  time.advance(60_000);
  assert.equal(fired, 1, "it fires once");
});

test("dispose stops the clock: a finished run never fires", (t) => {
  t.after(() => mock.timers.reset());
  const time = clock();
  let fired = 0;
  const limit = new TimeLimit(1, () => (fired += 1), time.now);
  limit.start();
  time.advance(500);
  limit.dispose();
  time.advance(5_000);
  assert.equal(fired, 0);
});
