// The model client's pieces on their own (SPEC §9): Retry-After parsing, the retry plan, stream
// assembly and completion normalising, and that the openai package is only imported dynamically.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { parseRetryAfter, planRetry } from "../src/model/retry.js";
import { StreamAssembler, normaliseCompletion } from "../src/model/normalise-response.js";

test("the openai package is only imported dynamically, so loading the client costs nothing", () => {
  const folder = new URL("../src/model/", import.meta.url);
  for (const name of readdirSync(folder)) {
    const text = readFileSync(new URL(name, folder), "utf8");
    for (const line of text.split("\n")) {
      if (/^\s*import\s[^(]*from\s+["']openai/.test(line)) assert.match(line, /^\s*import type /, `${name}: ${line}`);
      assert.doesNotMatch(line, /\brequire\(["']openai/, name);
    }
  }
});

describe("pieces", () => {
  const at = Date.UTC(2030, 5, 1, 8, 0, 0);
  const headers = (values: Record<string, string>) => new Headers(values);
  for (const [label, values, expected] of [
    ["whole seconds", { "retry-after": "3" }, 3000],
    ["fractional seconds", { "retry-after": "0.25" }, 250],
    ["retry-after-ms wins over Retry-After", { "retry-after-ms": "40", "retry-after": "9" }, 40],
    ["an HTTP date ahead", { "retry-after": new Date(at + 7000).toUTCString() }, 7000],
    ["an HTTP date already past", { "retry-after": new Date(at - 7000).toUTCString() }, 0],
    ["nonsense", { "retry-after": "soon" }, null],
    ["a negative number", { "retry-after": "-5" }, null],
    ["no header", {}, null],
  ] as const) {
    test(`Retry-After: ${label}`, () => assert.equal(parseRetryAfter(headers(values), at), expected));
  }

  test("planRetry stops at the retry budget and before a wait that reaches the deadline", () => {
    const base = { maxRetries: 3, now: 1000, deadline: 5000, random: () => 1 };
    assert.deepEqual(planRetry({ ...base, retriesDone: 0, retryAfterMs: null }), { kind: "retry", waitMs: 500, fromServer: false });
    assert.deepEqual(planRetry({ ...base, retriesDone: 2, retryAfterMs: null }), { kind: "retry", waitMs: 2000, fromServer: false });
    assert.deepEqual(planRetry({ ...base, retriesDone: 3, retryAfterMs: null }), { kind: "give_up", reason: "retries_exhausted" });
    assert.deepEqual(planRetry({ ...base, retriesDone: 0, retryAfterMs: 4000 }), { kind: "give_up", reason: "deadline", waitMs: 4000, fromServer: true });
  });

  test("stream assembly copes with deltas without index, split names and object arguments", () => {
    const assembler = new StreamAssembler();
    const delta = (d: object) => ({ choices: [{ index: 0, delta: d }] });
    assembler.add(delta({ tool_calls: [{ id: "c1", function: { name: "fin", arguments: '{"out' } }] }));
    assembler.add(delta({ tool_calls: [{ function: { name: "ish", arguments: 'come":1}' } }] }));
    assembler.add(delta({ tool_calls: [{ id: "c2", function: { name: "evaluate", arguments: { code: "x" } } }] }));
    assembler.add({ choices: [], usage: { total_tokens: 4 } });
    const result = assembler.finish();
    assert.ok(result.ok);
    assert.deepEqual(result.message.tool_calls, [
      { id: "c1", type: "function", function: { name: "finish", arguments: '{"outcome":1}' } },
      { id: "c2", type: "function", function: { name: "evaluate", arguments: '{"code":"x"}' } },
    ]);
    assert.deepEqual(result.usage, { total_tokens: 4 });
  });

  test("a completion with a nameless or id-less call: the first is malformed, the second gets a fresh id", () => {
    const message = (call: object) => ({ choices: [{ message: { role: "assistant", content: null, tool_calls: [call] } }] });
    assert.deepEqual(normaliseCompletion(message({ id: "x", function: { arguments: "{}" } })), { ok: false, detail: "a tool call has no function name" });
    const fresh = normaliseCompletion(message({ function: { name: "frames" } }));
    assert.ok(fresh.ok);
    assert.match(fresh.message.tool_calls[0].id, /^call_[A-Za-z0-9_-]{12}$/);
    assert.equal(fresh.message.tool_calls[0].function.arguments, "{}");
  });
});
