// The compile oracle as the frontend sees it: the test-support process around
// aiython_bridge.preparation.oracle.check answers batches in order, pipelines requests, and
// reports CPython's positions in code points.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startPythonOracle, type PythonOracle } from "./support/python-oracle.js";

let oracle: PythonOracle;
before(() => {
  oracle = startPythonOracle();
});
after(async () => {
  await oracle.close();
});

describe("python oracle", () => {
  test("one verdict per item, in order", async () => {
    const verdicts = await oracle.check([
      { source: "x = 1\n", filename: "a.py" },
      { source: "x = = 1\n", filename: "b.py" },
      { source: "return 1\n", filename: "c.py" },
    ]);
    assert.deepEqual(
      verdicts.map((v) => v.ok),
      [true, false, true],
    );
  });

  test("concurrent requests are answered in order", async () => {
    const sources = Array.from({ length: 20 }, (_, i) => (i % 2 ? `x = ${i} ${i}\n` : `x = ${i}\n`));
    const answers = await Promise.all(sources.map((source) => oracle.check([{ source, filename: "p.py" }])));
    assert.deepEqual(
      answers.map(([v]) => v.ok),
      sources.map((_, i) => i % 2 === 0),
    );
  });

  test("columns are code points even past astral characters", async () => {
    const [v] = await oracle.check([{ source: "s = '😀😀' + classify this\n", filename: "u.py" }]);
    assert.equal(v.ok, false);
    if (!v.ok) assert.equal(v.error.column, "s = '😀😀' + classify ".length - 2);
  });

  test("a large source goes through in one line", async () => {
    const source = `${"x = 1\n".repeat(100_000)}y = oops oops\n`;
    const [v] = await oracle.check([{ source, filename: "big.py" }]);
    assert.equal(v.ok, false);
    if (!v.ok) assert.equal(v.error.line, 100_001);
  });

  test("counts round trips and items", async () => {
    const before = { requests: oracle.requests, items: oracle.itemsChecked };
    await oracle.check([
      { source: "a = 1\n", filename: "a" },
      { source: "b = 2\n", filename: "b" },
    ]);
    assert.deepEqual({ requests: oracle.requests - before.requests, items: oracle.itemsChecked - before.items }, { requests: 1, items: 2 });
  });
});
