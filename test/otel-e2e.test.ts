// OpenTelemetry export end to end (SPEC §11): the built CLI runs a two-block program against the
// loopback model (the first request answered HTTP 500, then retried) with OTEL_EXPORTER_OTLP_*
// pointing at the loopback collector. The collector receives one trace: the run, one
// invoke_agent span per block, one `chat` span per model request with the GenAI token attributes
// and one POST span per HTTP attempt, and one execute_tool span per tool call — with no message
// content unless OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, and never the key. An
// unreachable collector costs one warning line and a bounded wait at exit.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { finishCall, startLoopbackModel, type LoopbackModel, type ScriptedReply } from "./support/loopback-model.js";
import { startOtlpCollector, type CollectedSpan } from "./support/otlp-collector.js";
import { FAKE_KEY, modelEnv, runIn } from "./support/observe-e2e.js";
import { ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const PROGRAM = [
  "import os",
  'secret = os.environ["OPENAI_API_KEY"]',
  'ticket = "I was charged twice"',
  "kind = classify this ticket",
  "note = summarize the ticket in three words",
  "print(kind, note)",
  "",
].join("\n");

const USAGE = { prompt_tokens: 1200, completion_tokens: 8, total_tokens: 1208, prompt_tokens_details: { cached_tokens: 1024 } };
const SCRIPT: ScriptedReply[] = [
  { status: 500, headers: { "retry-after-ms": "0" } },
  { ...finishCall({ kind: "literal", value: "billing" }), usage: USAGE },
  { ...finishCall({ kind: "literal", value: "double charge" }), usage: { prompt_tokens: 900, completion_tokens: 6, total_tokens: 906 } },
];
const CONTENT_KEYS = ["gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"];

/** `price`: run with an aiython.toml that prices the loopback model so. */
async function scenario(otel: Record<string, string>, price?: string): Promise<{ ran: Awaited<ReturnType<typeof runIn>>; model: LoopbackModel }> {
  const model = await startLoopbackModel({ script: SCRIPT });
  const files: Record<string, string> = { "main.py": PROGRAM };
  if (price) files["aiython.toml"] = `version = 3\nmodel = { model = "loop", api_base = "${model.url}", price = ${price} }\n`;
  const root = tempProject(files);
  try {
    const ran = await runIn(root, ["main.py"], modelEnv(model.url, { AIYTHON_MODEL: "loop", ...otel }));
    return { ran, model };
  } finally {
    await model.close();
  }
}

const named = (spans: CollectedSpan[], name: string) => spans.filter((span) => span.name === name);

test("the collector gets one chat span per model request, with token attributes and no message content", async () => {
  const collector = await startOtlpCollector();
  try {
    const { ran, model } = await scenario({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, "billing double charge\n");
    assert.equal(ran.stderr, "");
    assert.equal(model.requests.length, 3, "a 500, its retry, and the second block");

    const spans = collector.spans();
    assert.ok(collector.requests.every((r) => r.path === "/v1/traces" && r.contentType === "application/json"));
    const chats = named(spans, "chat loop");
    assert.equal(chats.length, 2, `one chat span per model request: ${spans.map((s) => s.name).join(", ")}`);
    for (const chat of chats) {
      assert.equal(chat.kind, 3, "CLIENT");
      assert.equal(chat.attributes["gen_ai.operation.name"], "chat");
      assert.equal(chat.attributes["gen_ai.request.model"], "loop");
      assert.equal(chat.attributes["server.address"], "127.0.0.1");
      assert.equal(typeof chat.attributes["server.port"], "number");
    }
    assert.deepEqual(
      chats.map((c) => [c.attributes["gen_ai.usage.input_tokens"], c.attributes["gen_ai.usage.output_tokens"], c.attributes["gen_ai.usage.cache_read.input_tokens"]]),
      [
        [1200, 8, 1024],
        [900, 6, undefined],
      ],
    );
    assert.deepEqual(
      chats.map((c) => c.attributes["aiython.attempts"]),
      [2, 1],
    );
    assert.ok(
      chats.every((c) => !("aiython.cost.usd" in c.attributes)),
      "no price: the cost is unknown, so left out rather than 0",
    );

    const posts = named(spans, "POST");
    assert.deepEqual(
      posts.map((p) => [p.attributes["http.response.status_code"], p.attributes["http.request.resend_count"] ?? 0]),
      [
        [500, 0],
        [200, 1],
        [200, 0],
      ],
    );
    assert.deepEqual(
      posts.map((p) => chats.findIndex((c) => c.spanId === p.parentSpanId)),
      [0, 0, 1],
      "each attempt under its request",
    );

    const agents = named(spans, "invoke_agent aiython");
    assert.deepEqual(
      agents.map((a) => [a.attributes["code.file.path"], a.attributes["code.line.number"], a.attributes["aiython.outcome"]]),
      [
        ["main.py", 4, "finished"],
        ["main.py", 5, "finished"],
      ],
    );
    assert.deepEqual(
      chats.map((c) => agents.findIndex((a) => a.spanId === c.parentSpanId)),
      [0, 1],
    );
    const tools = named(spans, "execute_tool finish");
    assert.equal(tools.length, 2);
    assert.deepEqual(
      tools.map((t) => [t.attributes["gen_ai.operation.name"], t.attributes["gen_ai.tool.name"]]),
      [
        ["execute_tool", "finish"],
        ["execute_tool", "finish"],
      ],
    );
    const [root] = named(spans, "aiython main.py");
    assert.ok(root, "the run's span");
    assert.equal(root.attributes["process.exit.code"], 0);
    assert.ok(agents.every((a) => a.parentSpanId === root.spanId));
    assert.equal(new Set(spans.map((s) => s.traceId)).size, 1, "one trace per run");
    assert.equal(spans.length, 1 + 2 + 2 + 3 + 2);
    assert.equal(root.resource["service.name"], "aiython");

    for (const span of spans) for (const key of CONTENT_KEYS) assert.equal(key in span.attributes, false, `${span.name} carries ${key}`);
    const sent = Buffer.concat(collector.requests.map((r) => r.body)).toString("utf8");
    for (const text of [FAKE_KEY, "charged twice", "classify this ticket", "billing"]) assert.equal(sent.includes(text), false, `the spans hold ${text}`);
    assert.equal(/authorization/i.test(sent), false);
  } finally {
    await collector.close();
  }
});

test("with content capture on, spans carry the messages and tool arguments, with the key redacted", async () => {
  const collector = await startOtlpCollector();
  try {
    const { ran, model } = await scenario({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    });
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.ok(
      model.requests.some((r) => r.rawBody.includes(FAKE_KEY)),
      "the program's own copy of the key is in the frame the model sees",
    );
    const spans = collector.spans();
    const [chat] = named(spans, "chat loop");
    const input = JSON.parse(String(chat.attributes["gen_ai.input.messages"]));
    assert.equal(input[0].role, "user");
    assert.match(input[0].parts[0].content, /classify this ticket/);
    assert.match(String(chat.attributes["gen_ai.system_instructions"]), /runtime of aiython/);
    const output = JSON.parse(String(chat.attributes["gen_ai.output.messages"]));
    assert.deepEqual(output[0].parts[0], { type: "tool_call", id: output[0].parts[0].id, name: "finish", arguments: { outcome: { kind: "literal", value: "billing" } } });
    const [tool] = named(spans, "execute_tool finish");
    assert.deepEqual(JSON.parse(String(tool.attributes["gen_ai.tool.call.arguments"])), { outcome: { kind: "literal", value: "billing" } });
    const sent = Buffer.concat(collector.requests.map((r) => r.body)).toString("utf8");
    assert.equal(sent.includes(FAKE_KEY), false, "the key never reaches a span");
    assert.ok(sent.includes("[redacted]"));
  } finally {
    await collector.close();
  }
});

test("with a price, each chat span carries what its attempts cost, cached prompt tokens at cached_input", async () => {
  const collector = await startOtlpCollector();
  try {
    const { ran } = await scenario({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }, "{ input = 2.0, output = 8.0, cached_input = 0.5 }");
    assert.equal(ran.exitCode, 0, ran.stderr);
    const costs = named(collector.spans(), "chat loop").map((c) => c.attributes["aiython.cost.usd"] as number);
    // The 500 cost nothing; then (1200 - 1024) × $2 + 1024 × $0.50 + 8 × $8, and 900 × $2 + 6 × $8, per million.
    const expected = [(176 * 2 + 1024 * 0.5 + 8 * 8) / 1e6, (900 * 2 + 6 * 8) / 1e6];
    assert.equal(costs.length, 2);
    for (const [i, cost] of costs.entries()) assert.ok(Math.abs(cost - expected[i]) < 1e-12, `chat ${i}: ${cost}, not ${expected[i]}`);
  } finally {
    await collector.close();
  }
});

test("by default the spans go as OTLP http/protobuf", async () => {
  const collector = await startOtlpCollector();
  try {
    const { ran } = await scenario({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stderr, "");
    assert.ok(collector.requests.length >= 1);
    const body = Buffer.concat(collector.requests.map((r) => r.body));
    assert.ok(collector.requests.every((r) => r.path === "/v1/traces" && r.contentType === "application/x-protobuf"));
    for (const text of ["chat loop", "invoke_agent aiython", "gen_ai.usage.input_tokens", "gen_ai.request.model"])
      assert.ok(body.includes(text), `the protobuf body names ${text}`);
    assert.equal(body.includes(FAKE_KEY), false);
  } finally {
    await collector.close();
  }
});

test("an unreachable collector: the program's output and status are intact, and one warning line says so", async () => {
  const collector = await startOtlpCollector();
  const endpoint = collector.url;
  await collector.close(); // nothing listens there now
  const { ran } = await scenario({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.equal(ran.stdout, "billing double charge\n");
  const port = new URL(endpoint).port;
  assert.equal(
    ran.stderr,
    `aiython: OpenTelemetry: could not send 10 spans to http://127.0.0.1:${port}/v1/traces (ECONNREFUSED); check OTEL_EXPORTER_OTLP_ENDPOINT and that the collector is running\n`,
  );
});

test("a collector that never answers is given up on at exit, well inside the exporter's own 10 s timeout", async () => {
  const hole = await startOtlpCollector({ silent: true });
  try {
    const started = Date.now();
    const { ran } = await scenario({ OTEL_EXPORTER_OTLP_ENDPOINT: hole.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
    const seconds = (Date.now() - started) / 1000;
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, "billing double charge\n");
    assert.match(
      ran.stderr,
      /^aiython: OpenTelemetry: could not send .* to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(no answer within 2 s\); check OTEL_EXPORTER_OTLP_ENDPOINT and that the collector is running\n$/,
    );
    assert.ok(hole.requests.length >= 1, "the export was attempted");
    // A bound on waiting, not a speed target: without the cap the exporter would wait 10 s.
    assert.ok(seconds < 9, `the run took ${seconds} s`);
  } finally {
    await hole.close();
  }
});

test("the OpenTelemetry SDK is loaded only by runs that export and reach a model", async () => {
  const collector = await startOtlpCollector();
  const loaded = async (otel: Record<string, string>, program: string): Promise<string[]> => {
    const root = tempProject({ "main.py": program });
    const traceFile = path.join(root, "modules.txt");
    const model = await startLoopbackModel({ script: SCRIPT.slice(1) });
    try {
      const hook = pathToFileURL(path.join(ROOT, "test", "support", "module-trace.mjs")).href;
      const env = modelEnv(model.url, { AIYTHON_MODEL: "loop", NODE_OPTIONS: `--import ${hook}`, AIYTHON_TEST_MODULE_TRACE: traceFile, ...otel });
      const ran = await runIn(root, ["main.py"], env);
      assert.equal(ran.exitCode, 0, ran.stderr);
      return fs
        .readFileSync(traceFile, "utf8")
        .trimEnd()
        .split("\n")
        .map((url) => path.basename(url));
    } finally {
      await model.close();
    }
  };
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
  try {
    const blocks = 'ticket = "x"\nkind = classify this ticket\nprint(kind)\n';
    const ordinary = await loaded({}, blocks);
    assert.ok(
      ordinary.some((name) => name.startsWith("invocation-runner-")),
      "the trace sees the run's chunks",
    );
    assert.equal(
      ordinary.some((name) => name.startsWith("tracing-")),
      false,
      "no SDK without OTEL_EXPORTER_OTLP_*",
    );
    assert.equal(
      (await loaded(endpoint, "print('no block')\n")).some((name) => name.startsWith("tracing-")),
      false,
      "no SDK for a run that reaches no model",
    );
    assert.ok(
      (await loaded(endpoint, blocks)).some((name) => name.startsWith("tracing-")),
      "the SDK when exporting",
    );
  } finally {
    await collector.close();
  }
});
