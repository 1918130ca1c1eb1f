// The model client end to end, retries and fallback: the real openai package talking to the
// loopback server. Covers 429 and Retry-After (seconds, milliseconds, an HTTP date), 5xx with
// backoff, a deadline during retries, route fallback, error events in a stream and dropped
// connections (SPEC §5.4, §9, §11). Retry waits go through an injected sleep where real waiting
// would only slow the run.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createModelClient } from "../src/model/model-client.js";
import { LOOPBACK_SECRET, finishCall, startLoopbackModel } from "./support/loopback-model.js";
import { assertNoSecrets, failureOf, loopback, recordingSleep, request, routeFor, servers, soon } from "./support/model-client-loopback.js";

describe("retries and fallback", () => {
  test("429 with Retry-After in seconds is honoured, then the answer comes", async () => {
    const server = await loopback([{ status: 429, headers: { "retry-after": "1" } }, finishCall({ kind: "none" })]);
    const { waits, sleep } = recordingSleep();
    const response = await createModelClient([routeFor(server)], { sleep }).complete(request, soon());
    assert.deepEqual(waits, [1000]);
    assert.equal(server.requests.length, 2);
    assert.equal(response.message.tool_calls[0].function.name, "finish");
  });

  test("retry-after-ms is honoured with a real wait between the two requests", async () => {
    const server = await loopback([{ status: 429, headers: { "retry-after-ms": "120" } }, finishCall({ kind: "none" })]);
    await createModelClient([routeFor(server)]).complete(request, soon());
    const gap = server.requests[1].receivedAt - server.requests[0].receivedAt;
    assert.ok(gap >= 110, `second request came ${gap} ms after the first`);
  });

  test("Retry-After as an HTTP date is measured against the clock, and providerSeconds counts the wait", async () => {
    let clock = Date.UTC(2030, 0, 1, 12, 0, 0);
    const server = await loopback([{ status: 503, headers: { "retry-after": new Date(clock + 5000).toUTCString() } }, finishCall({ kind: "none" })]);
    const waits: number[] = [];
    const client = createModelClient([routeFor(server)], {
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    });
    const response = await client.complete(request, { deadline: clock + 60_000 });
    assert.deepEqual(waits, [5000]);
    assert.equal(response.providerSeconds, 5);
  });

  test("500 is retried with backoff, then the answer comes", async () => {
    const server = await loopback([{ status: 500 }, { status: 502 }, finishCall({ kind: "none" })]);
    const { waits, sleep } = recordingSleep();
    const response = await createModelClient([routeFor(server)], { sleep, random: () => 0 }).complete(request, soon());
    assert.deepEqual(waits, [250, 500], "exponential backoff from 500 ms, jitter pinned to its floor");
    assert.equal(server.requests.length, 3);
    assert.equal(response.message.tool_calls.length, 1);
  });

  test("5xx through every retry fails as server", async () => {
    const server = await loopback([{ status: 500 }, { status: 500 }, { status: 503 }]);
    const { sleep } = recordingSleep();
    const err = await failureOf(createModelClient([routeFor(server)], { sleep, maxRetries: 2 }).complete(request, soon()));
    assert.equal(err.kind, "server");
    assert.match(err.message, /HTTP 503/);
    assert.match(err.message, /loopback\/test-model/);
    assert.equal(server.requests.length, 3);
    assertNoSecrets(err);
  });

  test("503 until the deadline fails as timeout before the deadline passes", async () => {
    const server = await startLoopbackModel({ responder: () => ({ status: 503 }) });
    servers.push(server);
    const started = Date.now();
    const deadline = started + 1500;
    const err = await failureOf(createModelClient([routeFor(server)]).complete(request, { deadline }));
    const ended = Date.now();
    assert.equal(err.kind, "timeout");
    assert.match(err.message, /HTTP 503/);
    assert.ok(ended <= deadline + 100, `gave up ${ended - deadline} ms after the deadline`);
    assert.ok(server.requests.length >= 2, "it retried at least once");
  });

  test("429 on route A falls through to route B after A's retries", async () => {
    const a = await loopback([{ status: 429 }, { status: 429 }, { status: 429 }]);
    const b = await loopback([finishCall({ kind: "none" })]);
    const { sleep } = recordingSleep();
    const response = await createModelClient([routeFor(a, { id: "a/model" }), routeFor(b, { id: "b/model" })], { sleep }).complete(request, soon());
    assert.equal(response.route, "b/model");
    assert.equal(a.requests.length, 3);
    assert.equal(b.requests.length, 1);
    assert.deepEqual(a.problems, []);
  });

  test("a Retry-After past the deadline falls through at once", async () => {
    const a = await loopback([{ status: 429, headers: { "retry-after": "3600" } }]);
    const b = await loopback([finishCall({ kind: "none" })]);
    const { waits, sleep } = recordingSleep();
    const response = await createModelClient([routeFor(a, { id: "a/model" }), routeFor(b, { id: "b/model" })], { sleep }).complete(request, soon());
    assert.equal(response.route, "b/model");
    assert.equal(a.requests.length, 1);
    assert.deepEqual(waits, []);
  });

  test("when every route is rate limited the error says so", async () => {
    const a = await loopback([{ status: 429, headers: { "retry-after": "3600" } }]);
    const b = await loopback([{ status: 429, headers: { "retry-after": "3600" } }]);
    const err = await failureOf(createModelClient([routeFor(a, { id: "a/model" }), routeFor(b, { id: "b/model" })]).complete(request, soon()));
    assert.equal(err.kind, "rate_limited");
    assert.match(err.message, /a\/model, b\/model/);
    assertNoSecrets(err);
  });

  test("a single route asked to wait past the deadline fails as rate_limited naming the wait", async () => {
    const server = await loopback([{ status: 429, headers: { "retry-after": "600" } }]);
    const err = await failureOf(createModelClient([routeFor(server)]).complete(request, soon(5000)));
    assert.equal(err.kind, "rate_limited");
    assert.match(err.message, /600 s/);
  });

  test("an error event inside a stream is retried like a server error, and its text stays out", async () => {
    const errorEvent = `data: ${JSON.stringify({ error: { message: `overloaded ${LOOPBACK_SECRET}`, code: "overloaded" } })}\n\n`;
    const server = await loopback([
      { rawBody: errorEvent, headers: { "content-type": "text/event-stream" } },
      { rawBody: errorEvent, headers: { "content-type": "text/event-stream" } },
    ]);
    const { waits, sleep } = recordingSleep();
    const err = await failureOf(createModelClient([routeFor(server)], { stream: true, sleep, maxRetries: 1 }).complete(request, soon()));
    assert.equal(err.kind, "server");
    assert.match(err.message, /an error event in the stream, code overloaded/);
    assert.equal(waits.length, 1);
    assertNoSecrets(err);
  });

  test("a dropped connection is retried", async () => {
    const server = await loopback([{ dropConnection: true }, finishCall({ kind: "none" })]);
    const { waits, sleep } = recordingSleep();
    const response = await createModelClient([routeFor(server)], { sleep }).complete(request, soon());
    assert.equal(waits.length, 1);
    assert.equal(response.message.tool_calls.length, 1);
  });
});
