// The model client end to end, its answers: the real openai package talking to the loopback server.
// Covers tool calls, the request SPEC §5 describes, streaming, usage, request size, what travels in
// the headers, and the client as the orchestrator's ModelPort (SPEC §5.4, §9, §11).

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createModelClient } from "../src/model/model-client.js";
import { fixedValue } from "../src/canonical-json.js";
import type { ModelPort, ModelRequest } from "../src/model-port.js";
import { LOOPBACK_SECRET, echoFinishResponder, finishCall, startLoopbackModel, toolCall, type ScriptedReply } from "./support/loopback-model.js";
import { runInvocation } from "../src/invocation/orchestrator.js";
import { FakeFrame } from "./support/fake-frame.js";
import { expressionBlock, settings } from "./support/pause-requests.js";
import { API_KEY, loopback, request, routeFor, servers, soon } from "./support/model-client-loopback.js";

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
    assert.deepEqual(
      frame.ops.map((op) => [op.name, op.args.outcome]),
      [["finish", { kind: "literal", value: "bug" }]],
    );
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
