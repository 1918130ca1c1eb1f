// The model client end to end: the real openai package talking to the loopback server. Covers
// tool calls, streaming, retries and Retry-After, route fallback, deadlines, failures at once
// for 401/403/404, network and malformed answers, cancellation, request size and usage (SPEC §5.4,
// §9, §11). Retry waits go through an injected sleep where real waiting would only slow the run.

import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import { createModelClient } from "../src/capabilities/chat/model-client.js";
import { fixedValue } from "../src/canonical-json.js";
import { ModelCallError } from "../src/capabilities/chat/errors.js";
import type { ChatRoute } from "../src/capabilities/chat/types.js";
import type { ModelRequest, ToolSpec } from "../src/model-port.js";
import { LOOPBACK_SECRET, echoFinishResponder, finishCall, startLoopbackModel, toolCall, type LoopbackModel, type ScriptedReply } from "./support/loopback-model.js";
import { parseRetryAfter, planRetry } from "../src/capabilities/chat/retry.js";
import { StreamAssembler, normaliseCompletion } from "../src/capabilities/chat/normalise-response.js";
import { runInvocation } from "../src/recovery/invocation/orchestrator.js";
import type { ModelPort } from "../src/model-port.js";
import { FakeFrame } from "./support/fake-frame.js";
import { expressionBlock, settings } from "./support/pause-requests.js";

const API_KEY = "sk-test-ROUTEKEY-5b1e0c9d7a3f";

const finishTool: ToolSpec = {
  type: "function",
  function: {
    name: "finish",
    description: "End the block with its outcome.",
    parameters: { type: "object", properties: { outcome: { type: "object" } }, required: ["outcome"], additionalProperties: false },
  },
};
const evaluateTool: ToolSpec = {
  type: "function",
  function: {
    name: "evaluate",
    description: "Evaluate one expression in the frame.",
    parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"], additionalProperties: false },
  },
};

const request: ModelRequest = {
  messages: [
    { role: "system", content: "You complete Python blocks." },
    { role: "user", content: '{"mode":"syntax","statement":"total = sum of prices in café ✓"}' },
  ],
  tools: [evaluateTool, finishTool],
  toolChoice: "required",
};

const servers: LoopbackModel[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

async function loopback(script: ScriptedReply[]): Promise<LoopbackModel> {
  const server = await startLoopbackModel({ script });
  servers.push(server);
  return server;
}

function routeFor(server: { url: string }, overrides: Partial<ChatRoute> = {}): ChatRoute {
  return { id: "loopback/test-model", model: "test-model", apiBase: server.url, apiKey: API_KEY, apiKeyEnv: "LOOPBACK_API_KEY", ...overrides };
}

/** A sleep that records the waits and returns at once. */
function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

function soon(ms = 30_000): { deadline: number } {
  return { deadline: Date.now() + ms };
}

async function failureOf(promise: Promise<unknown>): Promise<ModelCallError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ModelCallError, `expected a ModelCallError, got ${String(err)}`);
    assert.equal(err.name, "ModelCallError");
    return err;
  }
  assert.fail("the call succeeded but a ModelCallError was expected");
}

function assertNoSecrets(err: Error): void {
  for (const secret of [LOOPBACK_SECRET, API_KEY, "Bearer", "Incorrect API key provided"]) {
    assert.ok(!err.message.includes(secret), `message leaks ${secret}: ${err.message}`);
    assert.ok(!String(err.stack).includes(secret), `stack leaks ${secret}`);
  }
}

describe("answers", () => {
  test("tool calls come back with ids, names and raw argument strings; the request is what SPEC §5 says", async () => {
    const server = await loopback([
      {
        content: "thinking",
        toolCalls: [toolCall("evaluate", { code: "prices" }, "call_a"), toolCall("finish", '{"outcome": {"kind": NaN', "call_b")],
      },
    ]);
    const client = createModelClient([routeFor(server)]);
    const response = await client.complete(request, soon());
    assert.deepEqual(response.message, {
      content: "thinking",
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "evaluate", arguments: '{"code":"prices"}' } },
        { id: "call_b", type: "function", function: { name: "finish", arguments: '{"outcome": {"kind": NaN' } },
      ],
    });
    assert.equal(response.route, "loopback/test-model");
    assert.ok(response.providerSeconds > 0);
    const sent = server.requests[0];
    assert.equal(sent.path, "/v1/chat/completions");
    assert.equal(sent.body.model, "test-model");
    assert.deepEqual(sent.body.messages, request.messages);
    assert.deepEqual(sent.body.tools, request.tools);
    assert.equal(sent.body.tool_choice, "required");
    assert.equal("parallel_tool_calls" in sent.body, false);
    assert.equal(sent.body.stream, undefined);
    assert.equal(sent.headers.authorization, `Bearer ${API_KEY}`);
  });

  test("a reply without tool_calls gives an empty list and the content", async () => {
    const server = await loopback([{ content: "I am not sure." }]);
    const response = await createModelClient([routeFor(server)]).complete(request, soon());
    assert.deepEqual(response.message, { content: "I am not sure.", tool_calls: [] });
    assert.equal(response.usage, undefined);
  });

  test("streaming assembles the same message as the non-streaming answer", async () => {
    const reply: ScriptedReply = {
      content: "let me check",
      toolCalls: [toolCall("evaluate", { code: "len(prices) + 1" }, "call_1"), toolCall("finish", { outcome: { kind: "literal", value: "a long string value" } }, "call_2")],
      usage: { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 },
    };
    const server = await loopback([reply, reply]);
    const plain = await createModelClient([routeFor(server)]).complete(request, soon());
    const streamed = await createModelClient([routeFor(server)], { stream: true }).complete(request, soon());
    assert.deepEqual(streamed.message, plain.message);
    assert.deepEqual(streamed.usage, plain.usage);
    assert.equal(server.requests[1].body.stream, true);
    assert.deepEqual(server.requests[1].body.stream_options, { include_usage: true });
    assert.equal(plain.message.tool_calls.length, 2);
  });

  test("a route can ask for streaming on its own, and non-JSON arguments survive the deltas", async () => {
    const server = await loopback([{ toolCalls: [toolCall("finish", "not json at all {")] }]);
    const response = await createModelClient([routeFor(server, { stream: true })]).complete(request, soon());
    assert.equal(server.requests[0].body.stream, true);
    assert.equal(response.message.tool_calls[0].function.arguments, "not json at all {");
    assert.match(response.message.tool_calls[0].id, /^call_loop_/);
    assert.equal(response.message.content, null);
  });

  test("usage is mapped, cached tokens included", async () => {
    const server = await loopback([
      { ...finishCall({ kind: "none" }), usage: { prompt_tokens: 1200, completion_tokens: 30, total_tokens: 1230, prompt_tokens_details: { cached_tokens: 1024 } } },
    ]);
    const response = await createModelClient([routeFor(server)]).complete(request, soon());
    assert.deepEqual(response.usage, { prompt_tokens: 1200, completion_tokens: 30, total_tokens: 1230, cached_tokens: 1024 });
  });

  test("requestBytes is the byte length of the body the server received, streaming or not", async () => {
    const server = await loopback([finishCall({ kind: "none" }), finishCall({ kind: "none" })]);
    const plain = await createModelClient([routeFor(server)]).complete(request, soon());
    const streamed = await createModelClient([routeFor(server)], { stream: true }).complete(request, soon());
    assert.equal(plain.requestBytes, Buffer.byteLength(server.requests[0].rawBody, "utf8"));
    assert.equal(streamed.requestBytes, Buffer.byteLength(server.requests[1].rawBody, "utf8"));
    assert.ok(plain.requestBytes > server.requests[0].rawBody.length, "multi-byte characters are counted as bytes");
  });

  test("a fixed tool list (a run's shared one) goes out as the same bytes as a fresh list, streaming or not", async () => {
    const server = await loopback([finishCall({ kind: "none" }), finishCall({ kind: "none" }), finishCall({ kind: "none" }), finishCall({ kind: "none" })]);
    const fresh = () => structuredClone(request) as ModelRequest;
    const shared = { ...fresh(), tools: fixedValue(fresh().tools) };
    for (const stream of [false, true]) {
      const client = createModelClient([routeFor(server)], { stream });
      await client.complete(fresh(), soon());
      await client.complete(shared, soon());
    }
    const bodies = server.requests.map((r) => r.rawBody);
    assert.equal(bodies[1], bodies[0]);
    assert.equal(bodies[3], bodies[2]);
    assert.equal(bodies[0], JSON.stringify({ model: server.requests[0].body.model, messages: request.messages, tools: request.tools, tool_choice: "required" }));
  });

  test("a route without a key sends a placeholder; OpenAI account variables in the environment never travel", async () => {
    const server = await loopback([finishCall({ kind: "none" }), finishCall({ kind: "none" })]);
    const leaked = { OPENAI_ADMIN_KEY: "sk-admin-must-not-travel", OPENAI_ORG_ID: "org-must-not-travel", OPENAI_PROJECT_ID: "proj-must-not-travel" };
    Object.assign(process.env, leaked);
    try {
      await createModelClient([routeFor(server, { apiKey: null, apiKeyEnv: null })]).complete(request, soon());
      await createModelClient([routeFor(server)]).complete(request, soon());
    } finally {
      for (const name of Object.keys(leaked)) delete process.env[name];
    }
    assert.equal(server.requests[0].headers.authorization, "Bearer not-needed");
    assert.equal(server.requests[1].headers.authorization, `Bearer ${API_KEY}`);
    for (const sent of server.requests) {
      const headers = JSON.stringify(sent.headers);
      for (const value of Object.values(leaked)) assert.ok(!headers.includes(value), `${value} was sent`);
    }
  });
});

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

describe("failures at once", () => {
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

test("the openai package is only imported dynamically, so loading the client costs nothing", () => {
  const folder = new URL("../src/capabilities/chat/", import.meta.url);
  for (const name of readdirSync(folder)) {
    const text = readFileSync(new URL(name, folder), "utf8");
    for (const line of text.split("\n")) {
      if (/^\s*import\s[^(]*from\s+["']openai/.test(line)) assert.match(line, /^\s*import type /, `${name}: ${line}`);
      assert.doesNotMatch(line, /\brequire\(["']openai/, name);
    }
  }
});

describe("with the orchestrator", () => {
  test("the client is the orchestrator's ModelPort: a block finishes through it against the loopback model", async () => {
    const server = await startLoopbackModel({ responder: echoFinishResponder() });
    servers.push(server);
    const model: ModelPort = createModelClient([routeFor(server)]);
    const events: { type: string; request_bytes?: number }[] = [];
    const frame = new FakeFrame();
    const { end } = await runInvocation({
      id: "inv-1",
      request: expressionBlock(),
      settings: settings(),
      model,
      frame,
      onEvent: (event) => events.push(event),
    });
    assert.deepEqual(end, { status: "finished" });
    assert.equal(server.requests.length, 1);
    // echo-finish read requires_result and the enum output_schema from the real stable message.
    assert.deepEqual(frame.ops.map((op) => [op.name, op.args.outcome]), [["finish", { kind: "literal", value: "bug" }]]);
    const response = events.find((event) => event.type === "model_response");
    assert.equal(response?.request_bytes, Buffer.byteLength(server.requests[0].rawBody, "utf8"));
  });

  test("a ModelCallError from the client ends the invocation with its safe message", async () => {
    const server = await loopback([{ status: 401 }]);
    const { end } = await runInvocation({
      id: "inv-2",
      request: expressionBlock(),
      settings: settings(),
      model: createModelClient([routeFor(server)]),
      frame: new FakeFrame(),
    });
    assert.equal(end.status, "failed");
    assert.match(end.status === "failed" ? end.reason : "", /rejected the API key \(HTTP 401/);
    assert.ok(!JSON.stringify(end).includes(LOOPBACK_SECRET));
  });
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
