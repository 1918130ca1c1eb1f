// The index worker (src/frontend/parallel-index.ts): the parts it sends for a chunk are the parts
// the main thread makes of that chunk (chunk-index.ts), for clean chunks and for chunks where
// tree-sitter sees errors (their windows' parts are null), and a source large enough to use it
// is planned with its blocks found and typed in the worker's chunks too.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { analyzeSource } from "../src/frontend/index.js";
import { chunkText, indexChunk, parseChunks } from "../src/frontend/chunk-index.js";
import { startIndexWorker, usesIndexWorker, WORKER_MAX_LENGTH, WORKER_MIN_LENGTH } from "../src/frontend/parallel-index.js";
import { planWindows } from "../src/frontend/windows.js";
import { CAPABILITY_NAMES } from "../src/capabilities/names.js";
import { buildBigProgram } from "../bench/frontend/big-program.js";
import { startPythonOracle, type PythonOracle } from "./support/python-oracle.js";

let oracle: PythonOracle;
before(() => {
  oracle = startPythonOracle();
});
after(async () => {
  await oracle.close();
});

test("the worker's parts of each chunk equal the main thread's, clean chunks and broken ones alike", async () => {
  const { source } = buildBigProgram(WORKER_MIN_LENGTH + 100_000);
  const chunks = parseChunks(planWindows(source));
  assert.ok(chunks.length >= 3, `expected several chunks, got ${chunks.length}`);
  const worker = startIndexWorker();
  try {
    worker.submit(chunks.map((chunk) => ({ base: chunk[0].start, text: chunkText(source, chunk), windows: chunk })));
    let nullParts = 0;
    for (const chunk of chunks) {
      const remote = await worker.result(chunk[0].start);
      const local = await indexChunk(chunkText(source, chunk), chunk[0].start, chunk, () => {});
      assert.deepEqual(remote, local);
      nullParts += local.filter((p) => p.part === null).length;
    }
    assert.ok(nullParts > 0, "the natural-language lines should leave windows without a part");
  } finally {
    worker.close();
  }
});

test("a source that uses the worker gets every block, typed", async () => {
  const { source, naturalLines } = buildBigProgram(WORKER_MIN_LENGTH + 100_000);
  const plan = await analyzeSource({ source, filename: "/tmp/big.py", displayName: "big.py", oracle, capabilityNames: CAPABILITY_NAMES, cores: 4 });
  assert.deepEqual(
    plan.blocks.map((b) => b.span.line),
    naturalLines,
  );
  const described = plan.blocks.filter((b) => b.statement.startsWith("a friendly one-line description"));
  assert.ok(described.length > 0 && described.every((b) => b.output_type === "str"), "a return block takes its function's return type");
});

test("the plan is the same with the worker as without it", async () => {
  const { source } = buildBigProgram(WORKER_MIN_LENGTH + 100_000);
  const plans = [];
  for (const cores of [1, 4]) {
    plans.push(await analyzeSource({ source, filename: "/tmp/big.py", displayName: "big.py", oracle, capabilityNames: CAPABILITY_NAMES, cores }));
  }
  assert.deepEqual(plans[1], plans[0]);
});

test("the worker is used for sources of 512 KB to 2 MB, and only on three cores or more", () => {
  assert.equal(usesIndexWorker(WORKER_MIN_LENGTH, 4), true);
  assert.equal(usesIndexWorker(WORKER_MAX_LENGTH, 3), true);
  assert.equal(usesIndexWorker(WORKER_MIN_LENGTH, 2), false, "two cores: the bridge compiles on the other one");
  assert.equal(usesIndexWorker(WORKER_MIN_LENGTH - 1, 4), false);
  assert.equal(usesIndexWorker(WORKER_MAX_LENGTH + 1, 4), false);
});
