// The model client's HTTP transport (src/capabilities/chat/http-transport.ts) and what it is for:
// a run's requests share kept-alive connections, nothing caps how many are in flight below
// max_concurrency (up to its bound), each concurrent request keeps its own body size, the
// warm-up rehearsal sends nothing, and the failures it reports read like fetch's (an abort, a
// refused connection, a body cut off), and so do those of its `post`, which the client's
// non-streaming requests go through. The servers here are node:http ones of the test's own,
// each answering in one write, so that the connections they see can be counted.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import http, { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import net from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { createModelClient } from "../src/capabilities/chat/model-client.js";
import { keepAliveFetch, keepAliveTransport } from "../src/capabilities/chat/http-transport.js";
import { rehearsePost } from "../src/capabilities/chat/rehearsal.js";
import type { ChatRoute } from "../src/capabilities/chat/types.js";
import type { ModelRequest } from "../src/model-port.js";
import { CONFIG_BOUNDS } from "../src/defaults.js";

const COMPLETION = JSON.stringify({
  id: "c",
  object: "chat.completion",
  created: 0,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "t1", type: "function", function: { name: "finish", arguments: "{}" } }] }, finish_reason: "tool_calls" }],
});

interface CountingServer {
  url: string;
  /** Connections accepted, requests answered, and the most requests in flight at once. */
  connections: number;
  requests: number;
  peakInFlight: number;
  close(): Promise<void>;
}

const servers: CountingServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

async function countingServer(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>): Promise<CountingServer> {
  const sockets = new Set<Socket>();
  let inFlight = 0;
  const state = { url: "", connections: 0, requests: 0, peakInFlight: 0, close: async () => {} };
  const server = createServer(async (req, res) => {
    inFlight += 1;
    state.peakInFlight = Math.max(state.peakInFlight, inFlight);
    let body = "";
    for await (const chunk of req) body += chunk;
    state.requests += 1;
    res.on("finish", () => (inFlight -= 1));
    await answer(req, res, body);
  });
  server.on("connection", (socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  servers.push(state);
  return state;
}

const json = (res: ServerResponse, text: string, status = 200) => {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
};

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
  assert.deepEqual([small.requestBytes, large.requestBytes].sort((a, b) => a - b), [...sizes].sort((a, b) => a - b));
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

test("fetch's shape: status, headers and body of an answer; no body for 204", async () => {
  const server = await countingServer((req, res, body) => {
    if (req.url === "/empty") {
      res.writeHead(204, { "x-note": "none" });
      res.end();
      return;
    }
    res.writeHead(418, { "content-type": "text/plain", "x-echo": req.headers["x-sent"] ?? "" });
    res.end(`${req.method} ${body}`);
  });
  const fetch = keepAliveFetch();
  const origin = server.url.replace(/\/v1$/, "");
  const answer = await fetch(`${origin}/teapot`, { method: "POST", body: "café", headers: new Headers({ "X-Sent": "yes" }) });
  assert.equal(answer.status, 418);
  assert.equal(answer.ok, false);
  assert.equal(answer.headers.get("x-echo"), "yes");
  assert.equal(await answer.text(), "POST café");
  const empty = await fetch(`${origin}/empty`);
  assert.equal(empty.status, 204);
  assert.equal(empty.headers.get("x-note"), "none");
  assert.equal(empty.body, null);
});

/** `/cut` sends half a body and drops the connection; any other path answers after 5 s. */
function failingServer() {
  return countingServer(async (req, res) => {
    if (req.url === "/cut") {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    json(res, "{}");
  });
}

test("fetch's failures: an abort rejects with the signal's reason, a refused connection and a cut body are TypeErrors with the cause", async () => {
  const server = await failingServer();
  const fetch = keepAliveFetch();
  const origin = server.url.replace(/\/v1$/, "");

  const controller = new AbortController();
  const slow = fetch(`${origin}/slow`, { signal: controller.signal });
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(slow, (error: Error) => error.name === "AbortError");

  await assert.rejects(fetch(`${origin}/cut`), (error: Error) => error instanceof TypeError && error.message === "terminated" && (error.cause as { code?: string }).code === "ECONNRESET");

  const closed = await countingServer((_req, res) => json(res, "{}"));
  const port = new URL(closed.url).port;
  await closed.close();
  await assert.rejects(
    fetch(`http://127.0.0.1:${port}/v1`),
    (error: Error) => error instanceof TypeError && error.message === "fetch failed" && (error.cause as { code?: string }).code === "ECONNREFUSED",
  );
});

test("post's shape: the status, the headers by any case and the body as text, over the fetch's kept-alive connections", async () => {
  const server = await countingServer((req, res, body) => {
    res.writeHead(429, { "content-type": "application/json", "Retry-After": "7", "x-echo": `${req.method} ${req.headers["content-length"]} ${req.headers["x-sent"]}` });
    res.end(JSON.stringify({ got: body }));
  });
  const { fetch, post } = keepAliveTransport();
  const url = new URL(`${server.url}/chat/completions`);
  const reply = await post(url, { "x-sent": "yes" }, "café");
  assert.equal(reply.status, 429);
  assert.equal(reply.headers.get("Retry-After"), "7");
  assert.equal(reply.headers.get("x-echo"), "POST 5 yes");
  assert.equal(reply.headers.get("x-absent"), null);
  assert.deepEqual(JSON.parse(reply.text), { got: "café" });
  await fetch(url, { method: "POST", body: "{}" });
  await post(url, {}, "{}");
  assert.equal(server.connections, 1);
});

test("post's failures are fetch's: an abort, a cut body, a refused connection", async () => {
  const server = await failingServer();
  const { post } = keepAliveTransport();
  const origin = server.url.replace(/\/v1$/, "");

  const controller = new AbortController();
  const slow = post(new URL(`${origin}/slow`), {}, "{}", controller.signal);
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(slow, (error: Error) => error.name === "AbortError");
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(post(new URL(`${origin}/slow`), {}, "{}", aborted.signal), (error: Error) => error.name === "AbortError");

  await assert.rejects(post(new URL(`${origin}/cut`), {}, "{}"), (error: Error) => error instanceof TypeError && error.message === "terminated" && (error.cause as { code?: string }).code === "ECONNRESET");

  const closed = await countingServer((_req, res) => json(res, "{}"));
  const port = new URL(closed.url).port;
  await closed.close();
  await assert.rejects(
    post(new URL(`http://127.0.0.1:${port}/v1`), {}, "{}"),
    (error: Error) => error instanceof TypeError && error.message === "fetch failed" && (error.cause as { code?: string }).code === "ECONNREFUSED",
  );
});

test("post aborted while the body arrives rejects with the signal's reason, and the next request goes through", async () => {
  const server = await countingServer((req, res) => {
    if (req.url?.endsWith("/half")) {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"a":');
      return;
    }
    json(res, '{"ok":true}');
  });
  const { post } = keepAliveTransport();
  const controller = new AbortController();
  const reason = new Error("stopped by the caller");
  const half = post(new URL(`${server.url}/half`), {}, "{}", controller.signal);
  setTimeout(() => controller.abort(reason), 30);
  await assert.rejects(half, (error: Error) => error === reason);
  const after = await post(new URL(`${server.url}/whole`), {}, "{}", new AbortController().signal);
  assert.deepEqual([after.status, after.text], [200, '{"ok":true}']);
  await server.close();
});

test("post writes the request head http.request writes for the URL and the same header object, byte for byte", async () => {
  const heads: string[] = [];
  const open = new Set<net.Socket>();
  const raw = net.createServer((socket) => {
    open.add(socket);
    let seen = "";
    socket.on("data", (chunk) => {
      seen += chunk.toString("latin1");
      const end = seen.indexOf("\r\n\r\n");
      const length = end < 0 ? -1 : Number(/content-length: (\d+)/i.exec(seen.slice(0, end))?.[1] ?? 0);
      if (end < 0 || seen.length < end + 4 + length) return;
      heads.push(seen.slice(0, end + 4));
      seen = seen.slice(end + 4 + length);
      socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  const { port } = raw.address() as AddressInfo;
  const headers = () => ({ accept: "application/json", "content-type": "application/json", "user-agent": "aiython", authorization: "Bearer sk-x" });
  const agent = new http.Agent({ keepAlive: true });
  const plain = (url: URL, body: string) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(url, { method: "POST", headers: { ...headers(), "content-length": String(Buffer.byteLength(body)) }, agent }, (response) => response.resume().on("end", resolve));
      request.on("error", reject);
      request.end(body);
    });
  const { post } = keepAliveTransport();
  try {
    for (const base of [`http://127.0.0.1:${port}/v1/chat/completions`, `http://localhost:${port}/v1/chat/completions?x=1`]) {
      const url = new URL(base);
      await plain(url, "{\"é\":1}");
      await post(url, headers(), "{\"é\":1}");
      const [expected, sent] = heads.splice(0, 2);
      assert.equal(sent, expected);
      assert.match(sent, /^POST \/v1\/chat\/completions(\?x=1)? HTTP\/1\.1\r\n.*Host: (127\.0\.0\.1|localhost):\d+\r\nConnection: keep-alive\r\n\r\n$/s);
    }
  } finally {
    agent.destroy();
    for (const socket of open) socket.destroy();
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  }
});
