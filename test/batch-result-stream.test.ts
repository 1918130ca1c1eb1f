// A completed batch's output and error files are read as a stream, line by line (SPEC §14): a
// line split across chunks, a last line without "\n", CRLF, UTF-8 split inside a character, and
// the same answers as reading the file whole. Through the loopback Batch API, a multi-megabyte
// output file arrives in many chunks and every answer still reaches the request it belongs to.

import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import zlib from "node:zlib";
import { BatchApi, BatchApiError } from "../src/batch/batch-api.js";
import { lineBody, readResults, type LineResult } from "../src/batch/batch-lines.js";
import { BatchOffload } from "../src/batch/offload.js";
import { BatchProgress } from "../src/batch/progress.js";
import { LineSplitter, readResultStream } from "../src/batch/result-stream.js";
import { finishCall } from "./support/loopback-model.js";
import { startLoopbackBatch } from "./support/loopback-batch.js";
import { NO_JOURNAL } from "./support/batch-no-journal.js";

const answerLine = (id: string, value: string) =>
  JSON.stringify({
    custom_id: id,
    response: { status_code: 200, body: { choices: [{ message: { content: value } }] } },
    error: null,
  });

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const outcome = (result: LineResult | undefined) => {
  assert.ok(result?.ok, JSON.stringify(result));
  return result.message.content ?? JSON.parse(result.message.tool_calls[0].function.arguments).outcome.value;
};

test("lines split across chunks, CRLF, a last line without newline and split UTF-8 read as the whole file does", async () => {
  const text = [
    answerLine("a", "é日本 first"),
    `${answerLine("b", "crlf")}\r`,
    '{"custom_id": "c", "response": {not json',
    "",
    "garbage",
    JSON.stringify({ custom_id: "d", response: null, error: { code: "batch_expired" } }),
    answerLine("e", "no newline at the end ✓"),
  ].join("\n");
  const bytes = Buffer.from(`\uFEFF${text}`);
  const whole = readResults(text);
  assert.equal(whole.size, 5);
  for (const size of [1, 2, 3, 7, 64, bytes.length]) {
    const streamed = await readResultStream(chunked(bytes, size));
    assert.deepEqual([...streamed], [...whole], `chunks of ${size} bytes`);
  }
  assert.equal(outcome(whole.get("a")), "é日本 first");
  assert.equal(outcome(whole.get("e")), "no newline at the end ✓");
  assert.deepEqual(whole.get("c"), { ok: false, reason: "its line in the output is not JSON" });
});

test("the splitter holds only the unfinished line", () => {
  const splitter = new LineSplitter();
  assert.deepEqual(splitter.push(Buffer.from("ab")), []);
  assert.deepEqual(splitter.push(Buffer.from("c\nde\n\nf")), ["abc", "de", ""]);
  assert.deepEqual(splitter.push(Buffer.from("g")), []);
  assert.equal(splitter.end(), "fg");
  assert.equal(splitter.end(), null);
});

test("every answer of a multi-chunk output file reaches its request", async () => {
  // About 1.3 KB an answer, with characters of two and three bytes: 3,000 answers are a file of
  // some 4 MB, which arrives in many chunks with lines (and characters) cut at their edges.
  const pad = "ñ€x".repeat(300);
  const server = await startLoopbackBatch({
    responder: (request) => finishCall({ kind: "literal", value: `answer to ${request.body.messages[0].content} ${pad}` }),
  });
  const route = { id: "r", model: "m", apiBase: server.url, apiKey: "sk-test", apiKeyEnv: null };
  const offload = new BatchOffload(
    { windowMs: 20, pollMs: 5, maxRequests: 50_000, dir: null, attach: false },
    {
      journal: NO_JOURNAL,
      progress: new BatchProgress(() => undefined, false),
      stop: (message) => assert.fail(message),
      shown: (file) => file,
    },
  );
  try {
    const n = 3000;
    const asks = Array.from({ length: n }, (_, i) =>
      offload.ask({ route, body: lineBody("m", { messages: [{ role: "user", content: `block ${i}` }], tools: [], toolChoice: "required" }), key: `k${i}`, occurrence: 0 }, false),
    );
    const results = await Promise.all(asks);
    for (const [i, result] of results.entries()) assert.equal(outcome(result), `answer to block ${i} ${pad}`);
    assert.equal(server.batches.length, 1);

    const chunks: Buffer[] = [];
    for await (const chunk of new BatchApi(route).content(server.batches[0].output_file_id as string)) chunks.push(chunk);
    assert.ok(chunks.length > 10, `the file came in ${chunks.length} chunks`);
    assert.ok(chunks.filter((c) => c.at(-1) !== 0x0a).length > 5, "lines were cut at chunk edges");
  } finally {
    offload.close();
    await server.close();
  }
});

/** A server answering every GET with `body` in one write, under these headers. */
async function serving(body: Buffer, headers: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-length": String(body.length), ...headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test("a compressed output file is decompressed as it streams", async () => {
  const text = `${Array.from({ length: 2000 }, (_, i) => answerLine(`req-${i}`, `value ${i}`)).join("\n")}\n`;
  for (const [encoding, compress] of [
    ["gzip", zlib.gzipSync],
    ["br", zlib.brotliCompressSync],
  ] as const) {
    const server = await serving(compress(Buffer.from(text)), { "content-encoding": encoding });
    try {
      const results = await readResultStream(new BatchApi({ id: "r", model: "m", apiBase: server.url, apiKey: null, apiKeyEnv: null }).content("file-1"));
      assert.equal(results.size, 2000, encoding);
      assert.equal(outcome(results.get("req-1999")), "value 1999");
    } finally {
      await server.close();
    }
  }
});

test("an output file cut off mid-transfer is an error of the Batch API (the poll tries again), not a short read", async () => {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-length": "100000" });
    res.end(`${answerLine("a", "x")}\n${answerLine("b", "y").slice(0, 20)}`, () => res.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const api = new BatchApi({ id: "r", model: "m", apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: null, apiKeyEnv: null });
  try {
    await assert.rejects(
      readResultStream(api.content("file-1")),
      (error: unknown) => error instanceof BatchApiError && /GET \/files\/file-1\/content at .* failed/.test(error.message),
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
