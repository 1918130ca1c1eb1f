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
    // Batches are submitted concurrently: the server may have created them in another order than
    // the run numbered them, so each row is checked against the server's batch of that id.
    assert.equal(project.server.batches.length, 3);
    const lineCount = (id: string) => project.server.batches.find((b) => b.id === id)?.lines.length;

    const shown = await project.run(["runs", "show", "2"]);
    assert.equal(shown.exitCode, 0, shown.stderr);
    const out = shown.stdout.split("\n");
    const header = out.findIndex((line) => line.startsWith("  batch "));
    assert.equal(out[header], "  batch  kind  provider id or file  status     requests");
    const rows = out.slice(header + 1, header + 4).map((line) => line.trim().split(/\s+/));
    assert.deepEqual(
      rows.map(([number, kind, , status]) => [number, kind, status]),
      [
        ["1", "api", "completed"],
        ["2", "api", "completed"],
        ["3", "api", "completed"],
      ],
    );
    assert.deepEqual(rows.map((row) => row[2]).sort(), project.server.batches.map((b) => b.id).sort(), "every provider id, once");
    for (const row of rows) assert.equal(Number(row[4]), lineCount(row[2]), `requests of ${row[2]}`);
    assert.equal(out[header + 4], "", "three batches, no more");

    const json = JSON.parse((await project.run(["runs", "show", "2", "--json"])).stdout);
    assert.deepEqual(
      json.batches.map((b: { number: number; kind: string; providerId: string; status: string; requests: number }) => [b.number, b.kind, b.providerId, b.status, b.requests]),
      rows.map(([number, kind, id, status, requests]) => [Number(number), kind, id, status, Number(requests)]),
    );
    assert.equal(typeof json.batches[0].route, "string");

    const unbatched = await project.run(["runs", "show", "1"]);
    assert.doesNotMatch(unbatched.stdout, /provider id or file/);
    assert.deepEqual(JSON.parse((await project.run(["runs", "show", "1", "--json"])).stdout).batches, []);
  } finally {
    await project.close();
  }
});
