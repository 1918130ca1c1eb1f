// The model client's HTTP transport (src/model/http-transport.ts), its fetch and its
// `post` (which the client's non-streaming requests go through): answers shaped like fetch's, and
// failures that read like fetch's (an abort, a refused connection, a body cut off), a post aborted
// mid-body, and post's request head byte for byte against http.request's. The servers here are
// node:http (or net) ones of the test's own, each answering in one write.

import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { keepAliveFetch, keepAliveTransport } from "../src/model/http-transport.js";
import { countingServer, json } from "./support/counting-server.js";

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

  await assert.rejects(
    fetch(`${origin}/cut`),
    (error: Error) => error instanceof TypeError && error.message === "terminated" && (error.cause as { code?: string }).code === "ECONNRESET",
  );

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

  await assert.rejects(
    post(new URL(`${origin}/cut`), {}, "{}"),
    (error: Error) => error instanceof TypeError && error.message === "terminated" && (error.cause as { code?: string }).code === "ECONNRESET",
  );

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
      const request = http.request(url, { method: "POST", headers: { ...headers(), "content-length": String(Buffer.byteLength(body)) }, agent }, (response) =>
        response.resume().on("end", resolve),
      );
      request.on("error", reject);
      request.end(body);
    });
  const { post } = keepAliveTransport();
  try {
    for (const base of [`http://127.0.0.1:${port}/v1/chat/completions`, `http://localhost:${port}/v1/chat/completions?x=1`]) {
      const url = new URL(base);
      await plain(url, '{"é":1}');
      await post(url, headers(), '{"é":1}');
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
