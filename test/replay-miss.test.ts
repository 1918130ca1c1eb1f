// What a --replay miss says (SPEC §11): the nearest recorded request of the same block and, one
// line each, what differs — statement text, related values by name, tools, model, conversation —
// and never a program value.

import { test } from "node:test";
import assert from "node:assert/strict";
import { canonicalJson } from "../src/canonical-json.js";
import { missMessage } from "../src/observe/replay-miss.js";

interface Shape {
  statement?: string;
  ticket?: string;
  tools?: string[];
  model?: string;
  extra?: { role: string; content: string }[];
}

function stored(shape: Shape): string {
  const stable = canonicalJson({ mode: "syntax", statement: shape.statement ?? "classify this ticket", location: { file: "t.py", line: 9 } });
  const live = canonicalJson({ related_objects: [{ name: "ticket", value: shape.ticket ?? "I was charged twice" }, { name: "queues", value: {} }], frame_objects: [] });
  return canonicalJson({
    route: shape.model ?? "openai/gpt-4.1-mini",
    model: (shape.model ?? "openai/gpt-4.1-mini").split("/").pop(),
    messages: [{ role: "system", content: "prompt" }, { role: "user", content: stable }, { role: "user", content: live }, ...(shape.extra ?? [])],
    tools: (shape.tools ?? ["evaluate", "finish"]).map((name) => ({ type: "function", function: { name, description: "", parameters: {} } })),
    parameters: { tool_choice: "required" },
  });
}

const FIX = "run once without --replay to record it, or with --replay=fill to record only what is missing";

test("no recorded request for the block: the block and the fix", () => {
  assert.equal(missMessage("t.py:9", stored({}), []), `--replay: no recorded answer for t.py:9 — ${FIX}`);
});

test("the nearest of several recorded requests is named with each difference on its own line", () => {
  const now = stored({ statement: "classify this ticket as bug or billing", ticket: "Refund please" });
  const candidates = [stored({ model: "openai/gpt-4.1", tools: ["finish"] }), stored({ ticket: "Refund please" })];
  assert.equal(
    missMessage("t.py:9", now, candidates),
    [
      "--replay: no recorded answer for t.py:9; the nearest recorded request for this block differs in",
      '  statement: recorded "classify this ticket", now "classify this ticket as bug or billing"',
      FIX,
    ].join("\n"),
  );
});

test("values are named, never shown; tools, model and the conversation each get a line", () => {
  const now = stored({ ticket: "card 4111 1111", tools: ["evaluate", "finish", "inspect"], extra: [{ role: "assistant", content: "x" }, { role: "tool", content: "new" }] });
  const recorded = stored({ model: "openai/gpt-4.1", tools: ["evaluate", "finish"], extra: [{ role: "assistant", content: "x" }, { role: "tool", content: "old" }] });
  const message = missMessage("t.py:9", now, [recorded]);
  assert.deepEqual(message.split("\n").slice(1, -1), [
    "  related values: ticket",
    "  tools: now also inspect",
    "  model: recorded openai/gpt-4.1 (gpt-4.1), now openai/gpt-4.1-mini (gpt-4.1-mini)",
    "  the conversation: first at message 5 (tool); 5 messages each",
  ]);
  assert.equal(message.includes("4111"), false);
});
