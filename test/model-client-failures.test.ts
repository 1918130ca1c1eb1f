// The model client end to end, failures: the real openai package talking to the loopback server.
// Covers failures at once for 401/403/404/400, network and malformed answers, cancellation and
// deadlines (SPEC §5.4, §9, §11).

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createModelClient } from "../src/model/model-client.js";
import { finishCall, type ScriptedReply } from "./support/loopback-model.js";
import { assertNoSecrets, failureOf, loopback, recordingSleep, request, routeFor, soon } from "./support/model-client-loopback.js";

describe("failures at once", () => {
  for (const stream of [false, true]) {
    test(`an answer past maxResponseBytes fails at once, unread (${stream ? "streamed" : "whole"})`, async () => {
      const server = await loopback([{ ...finishCall({ kind: "none" }), content: "padding ".repeat(100_000), stream }, finishCall({ kind: "none" })]);
      const err = await failureOf(createModelClient([routeFor(server)], { stream, maxResponseBytes: 64 * 1024 }).complete(request, soon()));
      assert.equal(err.kind, "malformed");
      assert.match(err.message, /was larger than 0\.06 MB and was not read \(max_response_mb = 0\.06\); raise max_response_mb/);
      assert.equal(server.requests.length, 1, "no retry");
    });
  }

  const cases: { status: number; kind: string; words: RegExp }[] = [
    { status: 401, kind: "auth", words: /rejected the API key \(HTTP 401, code invalid_api_key\).*check LOOPBACK_API_KEY/ },
    { status: 403, kind: "permission", words: /refused access \(HTTP 403/ },
    { status: 404, kind: "not_found", words: /no model "test-model".*HTTP 404.*api_base/ },
    { status: 400, kind: "malformed", words: /rejected the request \(HTTP 400/ },
  ];
  for (const { status, kind, words } of cases) {
    test(`HTTP ${status} fails at once as ${kind}, naming the cause and no secret`, async () => {
      const server = await loopback([{ status }, finishCall({ kind: "none" })]);
      const err = await failureOf(createModelClient([routeFor(server)]).complete(request, soon()));
      assert.equal(err.kind, kind);
      assert.match(err.message, words);
      assert.match(err.message, /loopback\/test-model/);
      assert.equal(server.requests.length, 1, "no retry");
      assertNoSecrets(err);
    });
  }

  test("401 on a route without a key says none is configured", async () => {
    const server = await loopback([{ status: 401 }]);
    const err = await failureOf(createModelClient([routeFor(server, { apiKey: null, apiKeyEnv: null })]).complete(request, soon()));
    assert.equal(err.kind, "auth");
    assert.match(err.message, /none is configured; set api_key_env/);
    assertNoSecrets(err);
  });

  test("401 does not fall through to the next route", async () => {
    const a = await loopback([{ status: 401 }]);
    const b = await loopback([finishCall({ kind: "none" })]);
    const err = await failureOf(createModelClient([routeFor(a), routeFor(b)]).complete(request, soon()));
    assert.equal(err.kind, "auth");
    assert.equal(b.requests.length, 0);
  });

  test("connection refused fails as network, naming host:port", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const { waits, sleep } = recordingSleep();
    const err = await failureOf(createModelClient([routeFor({ url: `http://127.0.0.1:${port}/v1` })], { sleep }).complete(request, soon()));
    assert.equal(err.kind, "network");
    assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${port}.*connection refused.*check that the server is running`));
    assert.deepEqual(waits, [], "refused connections are not retried");
  });

  for (const [label, reply, detail] of [
    ["a non-JSON body", { rawBody: "<html>gateway</html>" }, /not valid JSON/],
    ["a body without choices", { rawBody: '{"object":"chat.completion","choices":[]}' }, /no choices/],
    ["a tool call without a name", { rawBody: '{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"x","function":{"arguments":"{}"}}]}}]}' }, /no function name/],
    ["server-sent events to a plain request", { rawBody: 'data: {"choices":[]}\n\n', headers: { "content-type": "text/event-stream" } }, /turn streaming on/],
  ] as const) {
    test(`${label} fails as malformed`, async () => {
      const server = await loopback([reply as ScriptedReply]);
      const err = await failureOf(createModelClient([routeFor(server)]).complete(request, soon()));
      assert.equal(err.kind, "malformed");
      assert.match(err.message, detail);
      assert.equal(server.requests.length, 1);
    });
  }

  test("a JSON answer to a streaming request fails as malformed, suggesting streaming off", async () => {
    const server = await loopback([{ rawBody: JSON.stringify({ choices: [{ message: { role: "assistant", content: "hi" } }] }) }]);
    const err = await failureOf(createModelClient([routeFor(server)], { stream: true }).complete(request, soon()));
    assert.equal(err.kind, "malformed");
    assert.match(err.message, /turn streaming off/);
  });
});

describe("cancellation and deadlines", () => {
  test("abort during a slow request fails as cancelled at once", async () => {
    const server = await loopback([{ ...finishCall({ kind: "none" }), delayMs: 5000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const err = await failureOf(createModelClient([routeFor(server)]).complete(request, { ...soon(), signal: controller.signal }));
    assert.equal(err.kind, "cancelled");
    assert.ok(Date.now() - started < 2000);
  });

  test("abort in the middle of a stream fails as cancelled, not as a short answer", async () => {
    const server = await loopback([{ ...finishCall({ kind: "none" }), chunkDelayMs: 100 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const err = await failureOf(createModelClient([routeFor(server)], { stream: true }).complete(request, { ...soon(), signal: controller.signal }));
    assert.equal(err.kind, "cancelled");
  });

  test("abort while waiting to retry fails as cancelled without another request", async () => {
    const server = await loopback([{ status: 429, headers: { "retry-after": "20" } }, finishCall({ kind: "none" })]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const err = await failureOf(createModelClient([routeFor(server)]).complete(request, { ...soon(), signal: controller.signal }));
    assert.equal(err.kind, "cancelled");
    assert.ok(Date.now() - started < 2000);
    assert.equal(server.requests.length, 1);
  });

  test("a request still running at the deadline fails as timeout at the deadline", async () => {
    const server = await loopback([{ ...finishCall({ kind: "none" }), delayMs: 5000 }]);
    const started = Date.now();
    const err = await failureOf(createModelClient([routeFor(server)]).complete(request, { deadline: started + 300 }));
    assert.equal(err.kind, "timeout");
    const took = Date.now() - started;
    assert.ok(took >= 250 && took < 1500, `took ${took} ms`);
  });

  test("a deadline further away than a timer can count still lets the request finish", async () => {
    const server = await loopback([{ ...finishCall({ kind: "none" }), delayMs: 50 }]);
    const response = await createModelClient([routeFor(server)]).complete(request, { deadline: Date.now() + 2 ** 32 });
    assert.equal(response.message.tool_calls.length, 1);
  });

  test("a request that would start after the deadline is never sent", async () => {
    const server = await loopback([finishCall({ kind: "none" })]);
    const err = await failureOf(createModelClient([routeFor(server)]).complete(request, { deadline: Date.now() - 1 }));
    assert.equal(err.kind, "timeout");
    assert.equal(server.requests.length, 0);
  });
});
