// Gathering requests into batches (SPEC §14): a batch goes when no request has come for the
// window, at once when it holds max_requests, and before a line would take it past the byte limit
// (a line over the limit goes alone); each batch's lines are in its spool file, in order.

import assert from "node:assert/strict";
import fs from "node:fs";
import { mock, test } from "node:test";
import { Gatherer, type Spooled } from "../src/batch/gatherer.js";

function gathered(limits: { maxRequests: number; maxBytes: number }) {
  const batches: { lines: string[]; ids: string[]; bytes: number }[] = [];
  const gatherer = new Gatherer(1000, limits, ({ file, pendings, bytes }: Spooled) => {
    batches.push({ lines: fs.readFileSync(file, "utf8").trimEnd().split("\n"), ids: pendings.map((p) => p.customId), bytes });
    fs.rmSync(file);
  });
  const add = (id: string, size: number) => gatherer.add({ customId: id, key: "k", occurrence: 1, settle: () => undefined }, id.padEnd(size - 1, "."));
  return { gatherer, batches, add };
}

test("a batch goes when no request has come for the window, or at once at max_requests", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  const { gatherer, batches, add } = gathered({ maxRequests: 3, maxBytes: 1000 });
  try {
    add("a", 10);
    mock.timers.tick(900);
    add("b", 10);
    mock.timers.tick(900);
    assert.equal(batches.length, 0, "each request restarts the window");
    add("c", 10);
    assert.deepEqual(batches[0]?.ids, ["a", "b", "c"], "full: it goes at once");
    add("d", 10);
    mock.timers.tick(1000);
    assert.deepEqual(
      batches.map((b) => b.ids),
      [["a", "b", "c"], ["d"]],
    );
    assert.deepEqual(batches[0].lines, ["a........", "b........", "c........"]);
    assert.equal(batches[0].bytes, 30);
  } finally {
    gatherer.close();
    mock.timers.reset();
  }
});

test("a line that would pass the byte limit starts the next batch; one over the limit goes alone", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  const { gatherer, batches, add } = gathered({ maxRequests: 100, maxBytes: 100 });
  try {
    for (const [id, size] of [
      ["a", 40],
      ["b", 40],
      ["c", 40],
      ["d", 200],
      ["e", 10],
    ] as const)
      add(id, size);
    mock.timers.tick(1000);
    assert.deepEqual(
      batches.map((b) => b.ids),
      [["a", "b"], ["c"], ["d"], ["e"]],
    );
  } finally {
    gatherer.close();
    mock.timers.reset();
  }
});
