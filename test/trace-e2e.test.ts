// --trace end to end (SPEC §11): a run of examples/tickets.py writes one JSON line per event —
// invocation start, model request, each HTTP attempt, model response, tool call, tool result,
// outcome — for each of its five invocations, one invocation after the other (the next block's
// events never come before the previous block's outcome), with ids and timestamps, and never the
// API key.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { FAKE_KEY, modelEnv, runIn, standIn, TICKETS_STDOUT, ticketsProject } from "./support/observe-e2e.js";

const PER_INVOCATION = ["invocation_start", "model_request", "model_attempt", "model_response", "tool_call", "tool_result", "outcome"];

test("--trace FILE: every event of every invocation, in order, without the key", async () => {
  const root = ticketsProject();
  const model = await standIn();
  try {
    const ran = await runIn(root, ["--trace", "trace.jsonl", "tickets.py"], modelEnv(model.url));
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, TICKETS_STDOUT);
    assert.equal(ran.stderr, "");
    const file = path.join(root, "trace.jsonl");
    const text = fs.readFileSync(file, "utf8");
    assert.equal(text.includes(FAKE_KEY), false, "the trace holds the API key");
    assert.equal(/authorization/i.test(text), false);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const events = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    for (let i = 1; i < events.length; i += 1) assert.ok(events[i].at >= events[i - 1].at, "timestamps go forward");
    const ids = [...new Set(events.map((e) => e.invocation))];
    assert.deepEqual(ids, ["inv-1", "inv-2", "inv-3", "inv-4", "inv-5"]);
    // Consecutive blocks: each invocation's events are one run of lines, in block order.
    assert.deepEqual(
      events.map((e) => `${e.invocation} ${e.type}`),
      ids.flatMap((id) => PER_INVOCATION.map((type) => `${id} ${type}`)),
    );
    const of = (id: string) => events.filter((e) => e.invocation === id);
    const [start, request, attempt, , call, result, outcome] = of("inv-1");
    assert.deepEqual([start.filename, start.line, start.mode], ["tickets.py", 14, "syntax"]);
    assert.deepEqual([attempt.round, attempt.attempt, attempt.status, attempt.outcome], [1, 1, 200, "answer"]);
    assert.ok(attempt.request_bytes > 1000);
    assert.equal(request.round, 1);
    assert.match(request.messages[1].content, /"statement":"classify this ticket"/);
    assert.equal(call.name, "finish");
    assert.deepEqual(call.arguments, { outcome: { kind: "literal", value: "billing" } });
    assert.equal(result.status, "ok");
    assert.equal(result.call_id, call.call_id);
    assert.deepEqual(outcome.end, { status: "finished" });
    assert.equal(of("inv-5")[4].arguments.outcome.kind, "expression");
  } finally {
    await model.close();
  }
});

test("--trace into a missing folder is a usage error before the program runs", async () => {
  const root = ticketsProject();
  const ran = await runIn(root, ["--trace", "nowhere/trace.jsonl", "-c", "print('ran')"], modelEnv("http://127.0.0.1:9/v1"));
  assert.equal(ran.exitCode, 2);
  assert.equal(ran.stdout, "");
  assert.equal(ran.stderr, `aiython: --trace: cannot write ${path.join(root, "nowhere", "trace.jsonl")}: its folder does not exist; give a writable file path\n`);
});
