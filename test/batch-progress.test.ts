// What a run waiting for its batches shows on stderr (SPEC §14): on a terminal one live line a
// second, erased when the batch ends (before any answer goes back to the program); otherwise one
// line a minute, and nothing before.

import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { BatchProgress } from "../src/batch/progress.js";

function progress(live: boolean) {
  const written: string[] = [];
  let now = 0;
  const shown = new BatchProgress(
    (text) => written.push(text),
    live,
    () => now,
  );
  const advance = (ms: number) => {
    now += ms;
    mock.timers.tick(ms);
  };
  return { shown, written, advance };
}

test("on a terminal: a live line each second with status, counts and time; erased when the batch ends", () => {
  mock.timers.enable({ apis: ["setInterval"] });
  try {
    const { shown, written, advance } = progress(true);
    shown.submitted("b1", 1, 200);
    advance(1000);
    assert.deepEqual(written, ["\r\x1b[2Kaiython: batch 1 validating: 200 submitted, 0 completed, 0 failed, 1 s"]);
    shown.status("b1", "in_progress", { total: 200, completed: 150, failed: 2 });
    advance(1000);
    assert.equal(written.at(-1), "\r\x1b[2Kaiython: batch 1 in_progress: 200 submitted, 150 completed, 2 failed, 2 s");
    shown.trouble("b1", "GET /batches/b1 failed (ECONNREFUSED)");
    advance(1000);
    assert.match(written.at(-1) ?? "", /batch 1 GET \/batches\/b1 failed \(ECONNREFUSED\): 200 submitted/);
    shown.ended("b1");
    assert.equal(written.at(-1), "\r\x1b[2K");
    const count = written.length;
    advance(5000);
    assert.equal(written.length, count, "nothing drawn once no batch waits");
  } finally {
    mock.timers.reset();
  }
});

test("not on a terminal: one line a minute, none before", () => {
  mock.timers.enable({ apis: ["setInterval"] });
  try {
    const { shown, written, advance } = progress(false);
    shown.submitted("b1", 1, 5);
    shown.submitted("b2", 2, 7);
    advance(59_000);
    assert.deepEqual(written, []);
    advance(1000);
    assert.deepEqual(written, ["aiython: batch 1 validating: 5 submitted, 0 completed, 0 failed, 60 s (+1 more batches)\n"]);
    shown.ended("b1");
    advance(60_000);
    assert.equal(written.at(-1), "aiython: batch 2 validating: 7 submitted, 0 completed, 0 failed, 120 s\n");
    shown.close();
  } finally {
    mock.timers.reset();
  }
});
