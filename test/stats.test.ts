// --stats rendering (SPEC §11): the JSON line has exactly the §11 invocation fields and the run's
// phases; the text form names each block with its counts; neither carries program data.

import { test } from "node:test";
import assert from "node:assert/strict";
import { statsJsonLine, statsText } from "../src/observe/stats-render.js";
import type { InvocationRecord } from "../src/invocation-record.js";
import { counters } from "./support/journal-helpers.js";
import { STATS_FIELDS as FIELDS } from "./support/stats-fields.js";

const invocations: InvocationRecord[] = [
  { id: "inv-1", filename: "/p/tickets.py", line: 15, mode: "syntax", stats: counters({ provider_seconds: 0.1 + 0.2 }), end: { status: "finished" } },
  {
    id: "inv-2",
    filename: "/p/tickets.py",
    line: 18,
    mode: "recovery",
    stats: counters({ model_calls: 3, tool_calls: 4, tool_counts: { evaluate: 3, recover: 1 }, tool_failures: 1, invalid_batches: 1, cost_usd: 0.0021 }),
    end: { status: "failed", reason: "the customer's card 4111-1111 was refused" },
  },
];
const run = { totalSeconds: 1.25, parseSeconds: 0.05, prepareSeconds: 0.1, executionSeconds: 1.0 };
const display = (file: string) => file.replace("/p/", "");

test("--stats=json is one line with exactly the §11 invocation fields and the run phases", () => {
  const line = statsJsonLine(invocations, run, display);
  assert.match(line, /^aiython stats: \{.*\}\n$/);
  assert.equal(line.split("\n").length, 2);
  const body = JSON.parse(line.slice("aiython stats: ".length));
  assert.deepEqual(Object.keys(body), ["invocations", "run"]);
  for (const inv of body.invocations) assert.deepEqual(Object.keys(inv), FIELDS);
  assert.deepEqual(
    body.invocations.map((inv: { filename: string; line: number; mode: string }) => [inv.filename, inv.line, inv.mode]),
    [
      ["tickets.py", 15, "syntax"],
      ["tickets.py", 18, "recovery"],
    ],
  );
  assert.equal(body.invocations[0].provider_seconds, 0.3, "seconds are rounded, without float noise");
  assert.deepEqual(body.invocations[1].tool_counts, { evaluate: 3, recover: 1 });
  assert.deepEqual(body.invocations[1].token_usage, { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920, cached_tokens: 0 });
  assert.deepEqual(
    body.invocations.map((inv: { cost_usd: number }) => inv.cost_usd),
    [0.00042, 0.0021],
  );
  assert.deepEqual(body.run, {
    model_calls: 4,
    replayed: 0,
    batched: 0,
    request_bytes: 10000,
    total_tokens: 1840,
    cost_usd: 0.00252,
    unpriced_routes: [],
    recovered: { completed: 0, retried: 0 },
    total_seconds: 1.25,
    parse_seconds: 0.05,
    prepare_seconds: 0.1,
    execution_seconds: 1,
  });
});

test("--stats: a route without a price makes the cost unknown and names it, in both forms", () => {
  const unpriced: InvocationRecord[] = [invocations[0], { ...invocations[1], stats: counters({ model_calls: 2, replayed: 3, cost_usd: null, unpriced_routes: ["local/llama"] }) }];
  const lines = statsText(unpriced, run, display).trimEnd().split("\n");
  assert.match(
    lines[0],
    /^aiython stats: 2 AI invocations, 3 model calls \(3 replayed\), 2 tool calls, 9\.8 KB sent, 1840 tokens, cost unknown \(no price for local\/llama\), [\d.]+ s waiting for the model$/,
  );
  assert.match(lines[1], /block\s+mode\s+outcome\s+model calls\s+replayed\s+tool calls\s+request\s+tokens\s+cost\s+seconds/);
  assert.deepEqual(
    lines.slice(2, 4).map((line) => line.trim().split(/\s+/)),
    [
      ["tickets.py:15", "syntax", "finished", "1", "0", "1", "4.9", "KB", "920", "$0.000420", "0.300"],
      ["tickets.py:18", "recovery", "failed", "2", "3", "1", "4.9", "KB", "920", "unknown", "0.300"],
    ],
  );
  const body = JSON.parse(statsJsonLine(unpriced, run, display).slice("aiython stats: ".length));
  assert.deepEqual([body.invocations[1].cost_usd, body.invocations[1].unpriced_routes], [null, ["local/llama"]]);
  assert.deepEqual([body.run.cost_usd, body.run.unpriced_routes, body.run.replayed], [null, ["local/llama"], 3]);
});

test("--stats text names each block with its mode, outcome and costs, and the run's phases", () => {
  const text = statsText(invocations, run, display);
  const lines = text.trimEnd().split("\n");
  assert.match(lines[0], /^aiython stats: 2 AI invocations, 4 model calls, 5 tool calls, 9\.8 KB sent, 1840 tokens, \$0\.002520, [\d.]+ s waiting for the model$/);
  assert.match(lines[1], /block\s+mode\s+outcome\s+model calls\s+tool calls\s+request\s+tokens\s+cost\s+seconds/);
  assert.match(lines[2], /^ {2}tickets\.py:15\s+syntax\s+finished\s+1\s+1\s+4\.9 KB\s+920\s+\$0\.000420\s+0\.300$/);
  assert.match(lines[3], /^ {2}tickets\.py:18\s+recovery\s+failed\s+3\s+4\s+4\.9 KB\s+920\s+\$0\.002100\s+0\.300$/);
  assert.equal(lines[4], "aiython stats: run 1.250 s total; parse 0.050 s, prepare 0.100 s, execution 1.000 s");
});

test("a failure reason (program data) never appears in stats", () => {
  for (const out of [statsText(invocations, run, display), statsJsonLine(invocations, run, display)]) {
    assert.equal(out.includes("4111"), false);
    assert.equal(out.includes("refused"), false);
  }
});

test("a run without AI invocations still reports its phases", () => {
  assert.equal(statsText([], run, display), "aiython stats: no AI invocations\naiython stats: run 1.250 s total; parse 0.050 s, prepare 0.100 s, execution 1.000 s\n");
  assert.deepEqual(JSON.parse(statsJsonLine([], run, display).slice(15)).invocations, []);
});

test("--stats counts the recovery decisions that changed the program's course (SPEC §4.2), in both forms", () => {
  const decided = (line: number, action: "complete" | "retry" | "reraise"): InvocationRecord => ({
    id: `inv-${line}`,
    filename: "/p/report.py",
    line,
    mode: "recovery",
    stats: counters({ model_calls: 1 }),
    end: { status: "finished", action },
  });
  const records = [invocations[0], decided(7, "complete"), decided(9, "retry"), decided(9, "complete"), decided(12, "reraise")];
  assert.ok(statsText(records, run, display).includes("aiython stats: recovery changed the program's course 3 times: 2 completed, 1 retried\n"));
  const body = JSON.parse(statsJsonLine(records, run, display).slice("aiython stats: ".length));
  assert.deepEqual(body.run.recovered, { completed: 2, retried: 1 });
  assert.doesNotMatch(statsText(invocations, run, display), /recovery changed/, "no line when nothing was recovered");
});
