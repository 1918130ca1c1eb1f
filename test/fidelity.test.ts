// Fidelity, fast subset (test/fidelity/): a Lib/test file, two standard-library command lines, a
// doctest, the tokenize pipe and the slow-reader printer, each run under python3, aiython without
// a model and aiython with a model at a dead address, must give python3's stdout, stderr, exit
// status and project folder. `npm run fidelity` runs the whole corpus.

import assert from "node:assert/strict";
import { test } from "node:test";
import { PYTHON } from "./support/run-cli.js";
import { corpus } from "./fidelity/corpus.js";
import { runFidelity, selectPrograms } from "./fidelity/fidelity.js";
import { describeInterpreter } from "./fidelity/interpreter.js";
import { resultLines } from "./fidelity/report.js";
import { MODES } from "./fidelity/run-mode.js";

const interp = describeInterpreter(PYTHON, PYTHON !== "python3");
const programs = selectPrograms(corpus(interp), { only: [], fast: true });
const results = runFidelity({ interp, programs, modes: MODES });

test("the fast subset has one program of each kind at least", () => {
  assert.deepEqual(new Set(programs.map((p) => p.kind)), new Set(["lib-test", "command-line", "slow-pipe", "process"]));
});

for (const program of programs) {
  test(`${program.name} runs as under python3, with and without a model configured`, async () => {
    const result = (await results).find((r) => r.name === program.name)!;
    assert.equal(result.status, "compared", resultLines(result).join("\n"));
    assert.deepEqual(resultLines(result), [`identical  ${program.name}`]);
  });
}
