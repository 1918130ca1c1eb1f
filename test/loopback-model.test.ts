// The loopback OpenAI-compatible server that other tests and the benchmarks stand on: what it
// records, how it renders scripted replies (JSON and streamed), its failure modes, the
// echo-finish responder, and the standalone process. Spoken to with plain fetch, not the client.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  LOOPBACK_SECRET,
  echoFinishResponder,
  finishCall,
  startLoopbackModel,
  toolCall,
  type LoopbackModel,
  type RecordedRequest,
  type ScriptedReply,
} from "./support/loopback-model.js";

const servers: LoopbackModel[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

async function start(script: ScriptedReply[]): Promise<LoopbackModel> {
  const server = await startLoopbackModel({ script });
  servers.push(server);
  return server;
}

function chat(server: { url: string }, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** The parsed JSON body of a response; `any` because each test checks the fields it reads. */
async function json(response: Promise<Response>): Promise<any> {
  return (await response).json();
}

/** The JSON payloads of an SSE body, "[DONE]" kept as a string. */
function events(text: string): unknown[] {
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => block.slice("data: ".length))
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

const finishTool = { type: "function", function: { name: "finish", description: "", parameters: {} } };
const recoverTool = { type: "function", function: { name: "recover", description: "", parameters: {} } };

test("replies carry tool calls with generated unique ids, object arguments as JSON and string arguments verbatim", async () => {
  const server = await start([
    { toolCalls: [toolCall("evaluate", { code: "x + 1" }), toolCall("finish", "{not json", "call_given")], usage: { prompt_tokens: 3 } },
    finishCall({ kind: "none" }),
  ]);
  const first = await json(chat(server, { model: "m1", messages: [] }));
  const second = await json(chat(server, { model: "m1", messages: [] }));
  const calls = first.choices[0].message.tool_calls;
  assert.equal(first.model, "m1");
  assert.equal(first.choices[0].finish_reason, "tool_calls");
  assert.deepEqual(calls[0].function, { name: "evaluate", arguments: '{"code":"x + 1"}' });
  assert.deepEqual(calls[1], { id: "call_given", type: "function", function: { name: "finish", arguments: "{not json" } });
  assert.deepEqual(first.usage, { prompt_tokens: 3 });
  const ids = [calls[0].id, second.choices[0].message.tool_calls[0].id];
  assert.ok(ids.every((id) => typeof id === "string" && id.length > 0));
  assert.notEqual(ids[0], ids[1]);
  assert.deepEqual(JSON.parse(second.choices[0].message.tool_calls[0].function.arguments), { outcome: { kind: "none" } });
});

test("a content-only reply has no tool_calls key", async () => {
  const server = await start([{ content: "hello" }]);
  const body = await json(chat(server, { messages: [] }));
  assert.deepEqual(body.choices[0].message, { role: "assistant", content: "hello" });
  assert.equal(body.choices[0].finish_reason, "stop");
});

test("every request is recorded with method, path, headers, raw and parsed body; /v1/models lists models", async () => {
  const server = await startLoopbackModel({ script: [finishCall({ kind: "none" })], models: ["alpha", "beta"] });
  servers.push(server);
  const listing = await json(fetch(`${server.url}/models`));
  assert.deepEqual(
    listing.data.map((m: { id: string }) => m.id),
    ["alpha", "beta"],
  );
  await chat(server, { model: "alpha", messages: [{ role: "user", content: "hi" }] }, { authorization: "Bearer sk-test" });
  assert.equal(server.requests.length, 2);
  const [models, completion] = server.requests as [RecordedRequest, RecordedRequest];
  assert.equal(models.method, "GET");
  assert.equal(models.path, "/v1/models");
  assert.equal(completion.method, "POST");
  assert.equal(completion.path, "/v1/chat/completions");
  assert.equal(completion.headers.authorization, "Bearer sk-test");
  assert.equal(completion.rawBody, JSON.stringify({ model: "alpha", messages: [{ role: "user", content: "hi" }] }));
  assert.equal(completion.body.model, "alpha");
  assert.ok(completion.receivedAt <= Date.now());
});

test("streamed replies split each tool call's arguments over several chunks, then usage, then [DONE]", async () => {
  const reply: ScriptedReply = { content: "ok then", toolCalls: [toolCall("finish", { outcome: { kind: "literal", value: 42 } }, "call_s")], usage: { total_tokens: 7 } };
  const server = await start([reply]);
  const response = await chat(server, { model: "m", messages: [], stream: true, stream_options: { include_usage: true } });
  assert.match(response.headers.get("content-type") ?? "", /text\/event-stream/);
  const chunks = events(await response.text());
  assert.equal(chunks.at(-1), "[DONE]");
  const objects = chunks.slice(0, -1) as { choices: { delta: any; finish_reason: string | null }[]; usage?: object }[];
  const deltas = objects.flatMap((c) => c.choices.map((choice) => choice.delta));
  const callDeltas = deltas.flatMap((d) => d.tool_calls ?? []);
  assert.ok(callDeltas.length >= 3, "the call arrives in several chunks");
  assert.equal(callDeltas[0].id, "call_s");
  assert.equal(callDeltas[0].function.name, "finish");
  assert.equal(callDeltas.map((d: any) => d.function.arguments).join(""), JSON.stringify(reply.toolCalls![0].arguments));
  assert.equal(deltas.map((d) => d.content ?? "").join(""), "ok then");
  assert.ok(objects.some((c) => c.choices[0]?.finish_reason === "tool_calls"));
  assert.deepEqual(objects.at(-1)!.usage, { total_tokens: 7 });
});

test("a reply marked stream is streamed even to a plain request", async () => {
  const server = await start([{ ...finishCall({ kind: "none" }), stream: true }]);
  const text = await (await chat(server, { messages: [] })).text();
  assert.equal(events(text).at(-1), "[DONE]");
});

test("error statuses carry their headers and an error body holding the secret marker", async () => {
  const server = await start([{ status: 429, headers: { "retry-after": "2" } }, { status: 401 }, { status: 503 }]);
  const limited = await chat(server, { messages: [] });
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "2");
  const denied = await chat(server, { messages: [] });
  assert.equal(denied.status, 401);
  const body: any = await denied.json();
  assert.ok(body.error.message.includes(LOOPBACK_SECRET));
  assert.equal(body.error.code, "invalid_api_key");
  assert.equal((await chat(server, { messages: [] })).status, 503);
});

test("rawBody is sent verbatim, delayMs delays, dropConnection hangs up", async () => {
  const server = await start([{ rawBody: "{truncated" }, { content: "late", delayMs: 150 }, { dropConnection: true }]);
  assert.equal(await (await chat(server, { messages: [] })).text(), "{truncated");
  const started = Date.now();
  await json(chat(server, { messages: [] }));
  assert.ok(Date.now() - started >= 140);
  await assert.rejects(chat(server, { messages: [] }), TypeError);
});

test("an exhausted script answers 500 'loopback script exhausted' and records the problem", async () => {
  const server = await start([]);
  const response = await chat(server, { messages: [] });
  assert.equal(response.status, 500);
  assert.match(await response.text(), /loopback script exhausted/);
  assert.equal(response.headers.get("x-loopback-problem"), "script-exhausted");
  assert.match(server.problems[0], /request 0 has no scripted reply/);
});

test("setScript and setResponder restart the count; the responder sees each request and its index", async () => {
  const server = await start([{ content: "first script" }]);
  await chat(server, { messages: [] });
  server.setScript([{ content: "second script" }]);
  const body = await json(chat(server, { messages: [] }));
  assert.equal(body.choices[0].message.content, "second script");
  const seen: number[] = [];
  server.setResponder((req, index) => {
    seen.push(index);
    return { content: `echo ${req.body.messages[0].content}` };
  });
  const echoed = await json(chat(server, { messages: [{ role: "user", content: "ping" }] }));
  assert.equal(echoed.choices[0].message.content, "echo ping");
  assert.deepEqual(seen, [0]);
});

test("unknown paths answer 404", async () => {
  const server = await start([]);
  const response = await fetch(`${server.url}/embeddings`, { method: "POST", body: "{}" });
  assert.equal(response.status, 404);
  assert.deepEqual(server.problems, []);
});

test("echo-finish answers none, or the simplest value of the output schema when a result is required, or reraise in recovery", async () => {
  const respond = echoFinishResponder();
  const asked = (user: object, tools: object[] = [finishTool]): RecordedRequest => ({
    method: "POST",
    path: "/v1/chat/completions",
    headers: {},
    receivedAt: 0,
    connection: 1,
    rawBody: "",
    body: {
      tools,
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: JSON.stringify(user) },
      ],
    },
  });
  const outcome = async (req: RecordedRequest, responder = respond): Promise<unknown> => {
    const reply = await responder(req, 0);
    return reply.toolCalls![0].arguments as { outcome?: unknown; action?: string };
  };
  assert.deepEqual(await outcome(asked({ requires_result: false })), { outcome: { kind: "none" } });
  assert.deepEqual(await outcome(asked({ mode: "syntax", requires_result: true, output: { json_schema: { type: "integer" } } })), {
    outcome: { kind: "literal", value: 0 },
  });
  assert.deepEqual(await outcome(asked({ requires_result: true, output_schema: { enum: ["low", "high"] } })), { outcome: { kind: "literal", value: "low" } });
  assert.deepEqual(await outcome(asked({ requires_result: true }), echoFinishResponder({ literal: "fixed" })), { outcome: { kind: "literal", value: "fixed" } });
  assert.deepEqual(await outcome(asked({ mode: "recovery" }, [recoverTool])), { action: "reraise" });
});

test("the standalone process prints its URL, serves echo-finish, and reports on SIGTERM", async () => {
  const script = fileURLToPath(new URL("./support/loopback-model.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, "--port", "0", "--echo-finish", "--finish-literal", "7"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (data) => (stderr += data));
  const [line] = (await once(child.stdout, "data")) as [Buffer];
  const url = line.toString().trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const body = await json(chat({ url }, { messages: [], tools: [finishTool] }));
  assert.deepEqual(JSON.parse(body.choices[0].message.tool_calls[0].function.arguments), { outcome: { kind: "literal", value: 7 } });
  child.kill("SIGTERM");
  const [code] = await once(child, "exit");
  assert.equal(code, 0);
  assert.match(stderr, /served 1 requests/);
});

test("the standalone process plays a script file and flags running out of it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "loopback-"));
  const file = join(dir, "script.json");
  writeFileSync(file, JSON.stringify([{ content: "from the file" }]));
  const script = fileURLToPath(new URL("./support/loopback-model.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, "--script", file], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (data) => (stderr += data));
  const [line] = (await once(child.stdout, "data")) as [Buffer];
  const url = line.toString().trim();
  const body = await json(chat({ url }, { messages: [] }));
  assert.equal(body.choices[0].message.content, "from the file");
  assert.equal((await chat({ url }, { messages: [] })).status, 500);
  child.kill("SIGTERM");
  await once(child, "exit");
  assert.match(stderr, /loopback script exhausted/);
});
