// The model client's HTTP transport (src/model/http-transport.ts), what it is for: a
// run's requests share kept-alive connections, nothing caps how many are in flight below
// max_concurrency (up to its bound), each concurrent request keeps its own body size, and the
// warm-up rehearsal sends nothing. The servers here are node:http ones of the test's own, each
// answering in one write, so that the connections they see can be counted.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createModelClient } from "../src/model/model-client.js";
import { rehearsePost } from "../src/model/rehearsal.js";
import type { ChatRoute } from "../src/model/types.js";
import type { ModelRequest } from "../src/model-port.js";
import { CONFIG_BOUNDS } from "../src/defaults.js";
import { countingServer, json } from "./support/counting-server.js";

const COMPLETION = JSON.stringify({
  id: "c",
  object: "chat.completion",
  created: 0,
  model: "m",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: null, tool_calls: [{ id: "t1", type: "function", function: { name: "finish", arguments: "{}" } }] },
      finish_reason: "tool_calls",
    },
  ],
});

const route = (url: string): ChatRoute => ({ id: "local/m", model: "m", apiBase: url, apiKey: null });
const requestOf = (text: string): ModelRequest => ({ messages: [{ role: "user", content: text }], tools: [], toolChoice: "required" });
const soon = () => ({ deadline: Date.now() + 30_000 });

test("the requests of one client share one kept-alive connection", async () => {
  const server = await countingServer((_req, res) => json(res, COMPLETION));
  const client = createModelClient([route(server.url)]);
  for (let i = 0; i < 5; i++) await client.complete(requestOf(`block ${i}`), soon());
  assert.equal(server.requests, 5);
  assert.equal(server.connections, 1);
});

test(`nothing below max_concurrency caps requests in flight (${CONFIG_BOUNDS.maxConcurrency.max} at once)`, async () => {
  const count = CONFIG_BOUNDS.maxConcurrency.max;
  let release!: () => void;
  const allArrived = new Promise<void>((resolve) => (release = resolve));
  const server = await countingServer(async (_req, res) => {
    if (server.requests === count) release();
    await allArrived;
    json(res, COMPLETION);
  });
  const client = createModelClient([route(server.url)]);
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => client.complete(requestOf(`block ${i}`), soon())));
  assert.equal(answers.length, count);
  assert.equal(server.peakInFlight, count);
});

test("concurrent requests on one client each report their own body size", async () => {
  const sizes: number[] = [];
  const server = await countingServer(async (_req, res, body) => {
    sizes.push(Buffer.byteLength(body));
    // The smaller request is answered last, so its size is read after the larger one was sent.
    await new Promise((resolve) => setTimeout(resolve, body.length < 500 ? 50 : 0));
    json(res, COMPLETION);
  });
  const client = createModelClient([route(server.url)]);
  const [small, large] = await Promise.all([client.complete(requestOf("s"), soon()), client.complete(requestOf("l".repeat(2000)), soon())]);
  assert.deepEqual(
    [small.requestBytes, large.requestBytes].sort((a, b) => a - b),
    [...sizes].sort((a, b) => a - b),
  );
  assert.ok(small.requestBytes < large.requestBytes);
});

test("the warm-up rehearses a request without sending anything", async () => {
  const server = await countingServer((_req, res) => json(res, COMPLETION));
  const client = createModelClient([route(server.url)]);
  await client.preload();
  assert.equal(server.connections, 0);
  await client.complete(requestOf("after the warm-up"), soon());
  assert.equal(server.requests, 1);
});

test("the POST path's rehearsal reads its answer from a connection in memory", async () => {
  assert.equal(await rehearsePost(), true);
});
