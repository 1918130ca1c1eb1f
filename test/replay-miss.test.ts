// What a --replay miss says (SPEC §11): the nearest recorded request of the same block, named by
// its run and time, and, one line each, what differs — statement text, related values by name, tools, model, conversation —
// and never a program value.

import { test } from "node:test";
import assert from "node:assert/strict";
import { canonicalJson } from "../src/canonical-json.js";
import { missMessage, type RecordedRequest } from "../src/observe/replay-miss.js";

interface Shape {
  statement?: string;
  ticket?: string;
  tools?: string[];
  model?: string;
  extra?: { role: string; content: string }[];
}

function stored(shape: Shape): string {
  const stable = canonicalJson({ mode: "syntax", statement: shape.statement ?? "classify this ticket", location: { file: "t.py", line: 9 } });
  const live = canonicalJson({
    related_objects: [
      { name: "ticket", value: shape.ticket ?? "I was charged twice" },
      { name: "queues", value: {} },
    ],
    frame_objects: [],
  });
  return canonicalJson({
    route: shape.model ?? "openai/gpt-4.1-mini",
    model: (shape.model ?? "openai/gpt-4.1-mini").split("/").pop(),
    messages: [{ role: "system", content: "prompt" }, { role: "user", content: stable }, { role: "user", content: live }, ...(shape.extra ?? [])],
    tools: (shape.tools ?? ["evaluate", "finish"]).map((name) => ({ type: "function", function: { name, description: "", parameters: {} } })),
    parameters: { tool_choice: "required" },
  });
}

/** Recorded by run `runId` at 12:0`runId` on 1 December 2026. */
function recorded(runId: number, shape: Shape): RecordedRequest {
  return { requestJson: stored(shape), runId, recordedAt: `2026-12-01T12:0${runId}:30.000Z` };
}

const FIX = "run once without --replay to record it, or with --replay=fill to record only what is missing";

test("no recorded request for the block: the block and the fix", () => {
  assert.equal(missMessage("t.py:9", stored({}), []), `--replay: no recorded answer for t.py:9 — ${FIX}`);
});

test("the nearest of several recorded requests is named by run and time, each difference on its own line", () => {
  const now = stored({ statement: "classify this ticket as bug or billing", ticket: "Refund please" });
  // Newest first: run 3 differs in statement, tools and model; run 2 in the statement only.
  const candidates = [recorded(3, { model: "openai/gpt-4.1", tools: ["finish"] }), recorded(2, { ticket: "Refund please" }), recorded(1, { ticket: "Other" })];
  assert.equal(
    missMessage("t.py:9", now, candidates),
    [
      "--replay: no recorded answer for t.py:9; the nearest recorded request for this block (run 2, 2026-12-01 12:02 UTC) differs in",
      '  statement: recorded "classify this ticket", now "classify this ticket as bug or billing"',
      FIX,
    ].join("\n"),
  );
});

test("of equally near requests the newest is named; one without a run is named by its time alone", () => {
  const now = stored({ ticket: "Refund please" });
  const newest = { ...recorded(5, {}), runId: null };
  assert.match(missMessage("t.py:9", now, [newest, recorded(4, {})]), /this block \(2026-12-01 12:05 UTC\) differs in\n {2}related values: ticket\n/);
  assert.match(missMessage("t.py:9", now, [{ ...newest, recordedAt: null }]), /this block differs in\n/);
});

test("a recorded request that is not JSON is passed over", () => {
  const now = stored({});
  assert.equal(missMessage("t.py:9", now, [{ requestJson: "{broken", runId: 1, recordedAt: null }]), `--replay: no recorded answer for t.py:9 — ${FIX}`);
  assert.match(missMessage("t.py:9", now, [{ requestJson: "{broken", runId: 1, recordedAt: null }, recorded(2, { ticket: "x" })]), /\(run 2, /);
});

test("values are named, never shown; tools, model and the conversation each get a line", () => {
  const now = stored({
    ticket: "card 4111 1111",
    tools: ["evaluate", "finish", "inspect"],
    extra: [
      { role: "assistant", content: "x" },
      { role: "tool", content: "new" },
    ],
  });
  const message = missMessage("t.py:9", now, [
    recorded(1, {
      model: "openai/gpt-4.1",
      tools: ["evaluate", "finish"],
      extra: [
        { role: "assistant", content: "x" },
        { role: "tool", content: "old" },
      ],
    }),
  ]);
  assert.deepEqual(message.split("\n").slice(1, -1), [
    "  related values: ticket",
    "  tools: now also inspect",
    "  model: recorded openai/gpt-4.1 (gpt-4.1), now openai/gpt-4.1-mini (gpt-4.1-mini)",
    "  the conversation: first at message 5 (tool); 5 messages each",
  ]);
  assert.equal(message.includes("4111"), false);
});
