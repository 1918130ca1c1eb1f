// test/fidelity/normalise.ts: what may vary between two python3 runs is replaced, and only that.
// The lines are CPython's own output (3.12.1's `python3 -m unittest -v test.test_int` on an idle
// machine, where the slow conversion it times runs under 1/64 s and the test skips).

import assert from "node:assert/strict";
import { test } from "node:test";
import { normalise } from "./fidelity/normalise.js";

const SKIPPED = (seconds: string) => `Regression test: ensure we fail before performing O(N**2) work. ... skipped '"slow" conversion took only ${seconds} seconds.'\n`;

test("test_int's skip message: two measured times normalise to the same line", () => {
  assert.equal(normalise(SKIPPED("0.013632011999999999")), normalise(SKIPPED("0.01339732099999999")));
  assert.equal(normalise(SKIPPED("9.5e-05")), normalise(SKIPPED("0.0153")));
  assert.match(normalise(SKIPPED("0.0136")), /skipped '"slow" conversion took only <time> seconds\.'$/m);
});

test("the skip itself is still compared, and the same words outside the skip message are left alone", () => {
  const passed = "Regression test: ensure we fail before performing O(N**2) work. ... ok\n";
  assert.notEqual(normalise(SKIPPED("0.0136")), normalise(passed));
  const printed = "conversion took only 0.25 seconds.\n";
  assert.equal(normalise(printed), printed);
});
