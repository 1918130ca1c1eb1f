// --stats end to end (SPEC §11): on a run of examples/tickets.py (five AI invocations) the JSON
// line carries one entry per invocation with exactly the §11 fields, the text form lists each
// block, stdout is byte-identical to a run without --stats, and no key or program data leaks.

import { test } from "node:test";
import assert from "node:assert/strict";
import { FAKE_KEY, modelEnv, runIn, standIn, TICKETS_STDOUT, ticketsProject } from "./support/observe-e2e.js";
import { STATS_FIELDS as FIELDS } from "./support/stats-fields.js";

test("--stats=json: one line per run with every invocation; stdout untouched", async () => {
  const root = ticketsProject();
  const model = await standIn();
  try {
    const plain = await runIn(root, ["tickets.py"], modelEnv(model.url));
    const ran = await runIn(root, ["--stats=json", "tickets.py"], modelEnv(model.url));
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, plain.stdout);
    assert.equal(ran.stdout, TICKETS_STDOUT);
    const lines = ran.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, ran.stderr);
    assert.match(lines[0], /^aiython stats: \{/);
    const stats = JSON.parse(lines[0].slice("aiython stats: ".length));
    assert.equal(stats.invocations.length, 5);
    for (const inv of stats.invocations) {
      assert.deepEqual(Object.keys(inv), FIELDS);
      assert.equal(inv.filename, "tickets.py");
      assert.equal(inv.mode, "syntax");
      assert.equal(inv.model_calls, 1);
      assert.equal(inv.tool_calls, 1);
      assert.deepEqual(inv.tool_counts, { finish: 1 });
      assert.ok(inv.request_bytes > 1000, `request_bytes ${inv.request_bytes}`);
      assert.equal(inv.invalid_batches + inv.empty_responses + inv.tool_failures, 0);
      assert.ok(inv.invocation_seconds >= inv.provider_seconds);
    }
    assert.deepEqual(
      stats.invocations.map((inv: { line: number }) => inv.line),
      [14, 14, 14, 14, 17],
    );
    assert.deepEqual(Object.keys(stats.run), [
      "model_calls",
      "replayed",
      "batched",
      "request_bytes",
      "total_tokens",
      "cost_usd",
      "unpriced_routes",
      "recovered",
      "total_seconds",
      "parse_seconds",
      "prepare_seconds",
      "execution_seconds",
    ]);
    assert.deepEqual([stats.run.model_calls, stats.run.cost_usd, stats.run.unpriced_routes], [5, null, ["stand-in"]]);
    assert.ok(stats.run.total_seconds >= stats.run.execution_seconds && stats.run.execution_seconds > 0);
    for (const secret of [FAKE_KEY, "charged twice", "Refund", "routed"]) assert.equal(ran.stderr.includes(secret), false, `stats hold ${secret}`);
  } finally {
    await model.close();
  }
});

test("--stats: a readable table on stderr, after the program's output", async () => {
  const root = ticketsProject();
  const model = await standIn();
  try {
    const ran = await runIn(root, ["--stats", "tickets.py"], modelEnv(model.url));
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, TICKETS_STDOUT);
    const lines = ran.stderr.trimEnd().split("\n");
    assert.match(
      lines[0],
      /^aiython stats: 5 AI invocations, 5 model calls, 5 tool calls, [\d.]+ KB sent, 0 tokens, cost unknown \(no price for stand-in\), [\d.]+ s waiting for the model$/,
    );
    assert.match(lines[1], /^ {2}block\s+mode\s+outcome\s+model calls\s+tool calls\s+request\s+tokens\s+cost\s+seconds$/);
    assert.deepEqual(
      lines.slice(2, 7).map((line) => line.trim().split(/\s+/).slice(0, 5)),
      [
        ["tickets.py:14", "syntax", "finished", "1", "1"],
        ["tickets.py:14", "syntax", "finished", "1", "1"],
        ["tickets.py:14", "syntax", "finished", "1", "1"],
        ["tickets.py:14", "syntax", "finished", "1", "1"],
        ["tickets.py:17", "syntax", "finished", "1", "1"],
      ],
    );
    assert.match(lines[7], /^aiython stats: run [\d.]+ s total; parse [\d.]+ s, prepare [\d.]+ s, execution [\d.]+ s$/);
    assert.equal(lines.length, 8);
  } finally {
    await model.close();
  }
});

test("--stats without a model reports the run and no invocations; `--stats FILE` runs FILE", async () => {
  const root = ticketsProject();
  const ran = await runIn(root, ["--stats", "-c", "print('plain')"], modelEnv("http://127.0.0.1:9/v1", { AIYTHON_MODEL: "" }));
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.equal(ran.stdout, "plain\n");
  const lines = ran.stderr.trimEnd().split("\n");
  assert.deepEqual(
    lines.map((line) => line.replace(/[\d.]+ s/g, "N s")),
    ["aiython stats: no AI invocations", "aiython stats: run N s total; parse N s, prepare N s, execution N s"],
  );
});
