// The loopback Batch API of test/support (SPEC §14): what the batch tests lean on — uploads,
// statuses in order, output and error files in OpenAI's format, failed, malformed and expired
// lines, and a server without the API.

import assert from "node:assert/strict";
import { test } from "node:test";
import { finishCall } from "./support/loopback-model.js";
import { startLoopbackBatch, type LoopbackBatch } from "./support/loopback-batch.js";

const line = (id: string, value: string) =>
  JSON.stringify({ custom_id: id, method: "POST", url: "/v1/chat/completions", body: { model: "m", messages: [{ role: "user", content: value }] } });

async function upload(server: LoopbackBatch, text: string, purpose = "batch"): Promise<Response> {
  const form = new FormData();
  form.append("purpose", purpose);
  form.append("file", new Blob([text]), "requests.jsonl");
  return fetch(`${server.url}/files`, { method: "POST", body: form });
}

async function submit(server: LoopbackBatch, text: string): Promise<string> {
  const file = (await (await upload(server, text)).json()) as { id: string };
  const created = await fetch(`${server.url}/batches`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" }),
  });
  assert.equal(created.status, 200);
  return ((await created.json()) as { id: string }).id;
}

const poll = async (server: LoopbackBatch, id: string) => (await (await fetch(`${server.url}/batches/${id}`)).json()) as any;
const content = async (server: LoopbackBatch, id: string) =>
  (await (await fetch(`${server.url}/files/${id}/content`)).text())
    .trim()
    .split("\n")
    .map((l) => l);
const echo = (request: { body: any }) => finishCall({ kind: "literal", value: request.body.messages[0].content });

test("a batch moves validating → in_progress → completed and its output answers each line by custom_id", async () => {
  const server = await startLoopbackBatch({ responder: echo, failLine: (l) => l.custom_id === "b" });
  try {
    const id = await submit(server, [line("a", "one"), line("b", "two"), line("c", "three")].join("\n"));
    assert.equal(server.batches[0].status, "validating");
    assert.equal((await poll(server, id)).status, "in_progress");
    const done = await poll(server, id);
    assert.equal(done.status, "completed");
    assert.deepEqual(done.request_counts, { total: 3, completed: 2, failed: 1 });
    const out = (await content(server, done.output_file_id)).map((l) => JSON.parse(l));
    assert.deepEqual(
      out.map((o) => [o.custom_id, o.response.status_code, JSON.parse(o.response.body.choices[0].message.tool_calls[0].function.arguments).outcome.value]),
      [
        ["a", 200, "one"],
        ["c", 200, "three"],
      ],
    );
    const errors = (await content(server, done.error_file_id)).map((l) => JSON.parse(l));
    assert.deepEqual(
      errors.map((e) => [e.custom_id, e.response.status_code]),
      [["b", 500]],
    );
    assert.equal(server.liveChats().length, 0);
  } finally {
    await server.close();
  }
});

test("an expired batch puts every line in the error file; a malformed line is text that is not JSON", async () => {
  const server = await startLoopbackBatch({ responder: echo, pollsPerStatus: 1, expireBatch: (n) => n === 1, malformedLine: (l) => l.custom_id === "y" });
  try {
    const first = await submit(server, line("x", "1"));
    await poll(server, first);
    const expired = await poll(server, first);
    assert.equal(expired.status, "expired");
    assert.equal(expired.output_file_id, null);
    assert.equal(JSON.parse((await content(server, expired.error_file_id))[0]).error.code, "batch_expired");
    const second = await submit(server, [line("x", "1"), line("y", "2")].join("\n"));
    await poll(server, second);
    const done = await poll(server, second);
    const out = await content(server, done.output_file_id);
    assert.equal(out.length, 2);
    assert.throws(() => JSON.parse(out[1]));
  } finally {
    await server.close();
  }
});

test("a held batch stays in progress; a bad upload is refused; without the API /files is a 404", async () => {
  const server = await startLoopbackBatch({ responder: echo });
  try {
    server.hold(true);
    const id = await submit(server, line("a", "1"));
    for (let i = 0; i < 4; i++) assert.notEqual((await poll(server, id)).status, "completed");
    server.hold(false);
    assert.equal((await poll(server, id)).status, "completed");
    assert.equal((await upload(server, line("a", "1"), "fine-tune")).status, 400);
    const bad = await submit(server, `${line("a", "1")}\n${line("a", "2")}`);
    assert.equal((await poll(server, bad)).status, "failed");
  } finally {
    await server.close();
  }
  const plain = await startLoopbackBatch({ responder: echo, noBatchApi: true });
  try {
    assert.equal((await upload(plain, line("a", "1"))).status, 404);
  } finally {
    await plain.close();
  }
});
