// `aiython runs show ID` lists a run's batches (SPEC §14): number, kind, the provider's id (or
// the requests file), status and how many requests each carried — in the table and in --json; a
// run without batches shows none. Through the built CLI against the loopback Batch API.

import assert from "node:assert/strict";
import { test } from "node:test";
import { batchProject } from "./support/batch-project.js";

test("runs show lists the run's batches, in the table and in --json", async () => {
  const project = await batchProject({}, "window = 1\npoll = 0.05\nmax_requests = 2");
  try {
    const live = await project.run(["five.py"]);
    assert.equal(live.exitCode, 0, live.stderr);
    const batched = await project.run(["--batch", "five.py"]);
    assert.equal(batched.exitCode, 0, batched.stderr);
    const ids = project.server.batches.map((b) => b.id);
    assert.equal(ids.length, 3);

    const shown = await project.run(["runs", "show", "2"]);
    assert.equal(shown.exitCode, 0, shown.stderr);
    const lines = shown.stdout.split("\n");
    const header = lines.findIndex((line) => line.startsWith("  batch "));
    const table = lines.slice(header, header + 4);
    assert.deepEqual(table, [
      "  batch  kind  provider id or file  status     requests",
      `  1      api   ${ids[0]}         completed         2`,
      `  2      api   ${ids[1]}         completed         2`,
      `  3      api   ${ids[2]}         completed         1`,
    ]);

    const json = JSON.parse((await project.run(["runs", "show", "2", "--json"])).stdout);
    assert.deepEqual(json.batches, [
      { number: 1, kind: "api", route: json.batches[0].route, providerId: ids[0], status: "completed", requests: 2 },
      { number: 2, kind: "api", route: json.batches[0].route, providerId: ids[1], status: "completed", requests: 2 },
      { number: 3, kind: "api", route: json.batches[0].route, providerId: ids[2], status: "completed", requests: 1 },
    ]);
    assert.equal(typeof json.batches[0].route, "string");

    const unbatched = await project.run(["runs", "show", "1"]);
    assert.doesNotMatch(unbatched.stdout, /provider id or file/);
    assert.deepEqual(JSON.parse((await project.run(["runs", "show", "1", "--json"])).stdout).batches, []);
  } finally {
    await project.close();
  }
});
