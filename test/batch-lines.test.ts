// The JSONL of batch offload (SPEC §14): request lines as the live client would post them, output
// and error lines read by custom_id. A line that cannot be read is a failed line, never an exception.

import assert from "node:assert/strict";
import { test } from "node:test";
import { lineBody, readResults, requestLine } from "../src/batch/batch-lines.js";
import { requestBody } from "../src/model/post-attempt.js";

const request = { messages: [{ role: "user" as const, content: "hi" }], tools: [], toolChoice: "required" as const };

test("a request line carries the live client's body under its custom_id", () => {
  const parsed = JSON.parse(requestLine("req-7", lineBody("m", request)));
  assert.deepEqual(Object.keys(parsed), ["custom_id", "method", "url", "body"]);
  assert.equal(parsed.custom_id, "req-7");
  assert.equal(parsed.url, "/v1/chat/completions");
  assert.equal(JSON.stringify(parsed.body), requestBody("m", request, "required"));
});

test("output and error lines become answers and failures; unreadable lines fail, never throw", () => {
  const answer = (id: string) =>
    JSON.stringify({
      custom_id: id,
      response: {
        status_code: 200,
        body: {
          choices: [{ message: { content: null, tool_calls: [{ id: "c", type: "function", function: { name: "finish", arguments: "{}" } }] } }],
          usage: { prompt_tokens: 3 },
        },
      },
      error: null,
    });
  const text = [
    answer("a"),
    JSON.stringify({ custom_id: "b", response: { status_code: 500, body: { error: { message: "sk-secret" } } }, error: null }),
    JSON.stringify({ custom_id: "c", response: null, error: { code: "batch_expired", message: "too late" } }),
    '{"custom_id": "d", "response": {not json',
    "garbage",
    JSON.stringify({ custom_id: "e", response: { status_code: 200, body: { choices: [] } } }),
    "",
  ].join("\n");
  const results = readResults(text);
  assert.deepEqual(results.get("a"), {
    ok: true,
    message: { content: null, tool_calls: [{ id: "c", type: "function", function: { name: "finish", arguments: "{}" } }] },
    usage: { prompt_tokens: 3 },
  });
  assert.deepEqual(results.get("b"), { ok: false, reason: "HTTP 500" });
  assert.deepEqual(results.get("c"), { ok: false, reason: "batch_expired" });
  assert.deepEqual(results.get("d"), { ok: false, reason: "its line in the output is not JSON" });
  assert.equal(results.get("e")?.ok, false);
  assert.equal(results.size, 5);
  assert.ok(!JSON.stringify([...results.values()]).includes("sk-secret"), "a provider's error body is never kept");
});

test("an answer is not undone by an error line for the same request", () => {
  const ok = JSON.stringify({ custom_id: "a", response: { status_code: 200, body: { choices: [{ message: { content: "x" } }] } } });
  const failed = JSON.stringify({ custom_id: "a", response: { status_code: 500, body: {} } });
  assert.equal(readResults(`${failed}\n${ok}\n`).get("a")?.ok, true);
  assert.equal(readResults(`${ok}\n${failed}\n`).get("a")?.ok, true);
});
