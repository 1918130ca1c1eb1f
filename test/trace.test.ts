// --trace writing (SPEC §11, §9): one JSON line per event in order, owner-only file, secrets
// redacted even when program data holds them, a clear error for an unwritable path.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openTraceWriter, TraceFileError } from "../src/observe/trace-writer.js";
import { makeRedactor, secretsFrom, REDACTED } from "../src/observe/redact.js";
import { tempProject } from "./support/journal-helpers.js";

const KEY = "sk-test-FAKE-KEY-0123456789abcdef";

test("events become JSON lines in order, in an owner-only file", () => {
  const file = path.join(tempProject(), "trace.jsonl");
  const warnings: string[] = [];
  const trace = openTraceWriter(file, { redact: (t) => t, warn: (m) => warnings.push(m) });
  trace.write({ type: "model_request", invocation: "inv-1", at: 1, round: 1, messages: [], message_count: 0, tools: [] });
  trace.write({ type: "model_response", invocation: "inv-1", at: 2, round: 1, content: null, tool_calls: [], request_bytes: 10, provider_seconds: 0, route: "openai/m" });
  trace.write({ type: "outcome", invocation: "inv-1", at: 3, end: { status: "finished" } });
  trace.close();
  const lines = fs
    .readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
  assert.deepEqual(
    lines.map((event) => [event.type, event.at]),
    [
      ["model_request", 1],
      ["model_response", 2],
      ["outcome", 3],
    ],
  );
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(warnings, []);
});

test("a key held by program data is redacted from trace lines, in plain and JSON-escaped form", () => {
  const file = path.join(tempProject(), "trace.jsonl");
  const quoted = 'pass"word\\with-escapes';
  const redact = makeRedactor(secretsFrom([KEY], { DB_PASSWORD: quoted, HOME: "/root/not-a-secret" }));
  const trace = openTraceWriter(file, { redact, warn: () => undefined });
  trace.write({ type: "tool_result", invocation: "inv-1", at: 1, content: `{"result":"${KEY}"}`, other: quoted, home: "/root/not-a-secret" } as never);
  trace.close();
  const text = fs.readFileSync(file, "utf8");
  assert.equal(text.includes(KEY), false);
  assert.equal(text.includes('pass\\"word'), false);
  assert.equal(text.split(REDACTED).length - 1, 2);
  assert.match(text, /not-a-secret/);
});

test("a trace path that cannot be written is a clear error before anything runs", () => {
  const missing = path.join(tempProject(), "no-such-folder", "trace.jsonl");
  assert.throws(
    () => openTraceWriter(missing, { redact: (t) => t, warn: () => undefined }),
    (error: Error) => {
      assert.ok(error instanceof TraceFileError);
      assert.equal(error.message, `--trace: cannot write ${missing}: its folder does not exist; give a writable file path`);
      return true;
    },
  );
});
