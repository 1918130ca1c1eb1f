// End-to-end: AI blocks at run time answered (SPEC §4.3, §5, §6). The built CLI runs fixture
// programs with natural-language lines against the loopback OpenAI-compatible server, configured the
// way a user would (AIYTHON_MODEL + OPENAI_BASE_URL, or aiython.toml): the tickets loop, values read
// or evaluated in the frame, statement blocks, typed results repaired, blocks in functions and
// coroutines, the execute_code permission, and what a request lists of its frame.

import assert from "node:assert/strict";
import { test } from "node:test";
import { finishCall, toolCall, type Responder } from "./support/loopback-model.js";
import { standInReply } from "../examples/demo/stand-in-model.js";
import { live, runFixture, stable, toolMessages } from "./support/ai-fixture-run.js";

test("the tickets loop: one request per block, values inlined, typed Literal results", async () => {
  const run = await runFixture("tickets.py", { responder: (req) => standInReply(req.body) });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(
    run.stdout,
    "{'bug': ['The app crashes on login', 'Error 500 on save'], 'billing': ['I was charged twice', 'Refund please']}\n" + "2 billing tickets and 2 bug reports were routed.\n",
  );
  assert.equal(run.requests.length, 5, "four classifications and one summary, one request each");
  const first = run.requests[0];
  assert.equal(stable(first).statement, "classify this ticket");
  assert.equal(stable(first).output_type, "Literal['bug', 'billing']");
  assert.deepEqual(stable(first).output_schema.enum, ["bug", "billing"]);
  assert.equal(live(first).related_objects.find((o: { name: string }) => o.name === "ticket").value, "I was charged twice");
  assert.equal(first.body.tool_choice, "required");
  assert.ok(Math.max(...run.requests.map((r) => Buffer.byteLength(r.rawBody))) < 6144, "requests stay under 6 KB");
  // One client for the route serves the run, over one kept-alive connection (SPEC §12).
  assert.deepEqual(new Set(run.requests.map((r) => r.connection)), new Set([1]), "every block's request on the run's one connection");
});

test("the demo's stand-in model answers the README's console line, and says what it does not know", async () => {
  const body = (statement: string) => ({
    messages: [
      { role: "system", content: "" },
      { role: "user", content: JSON.stringify({ mode: "syntax", statement }) },
    ],
  });
  assert.deepEqual((await standInReply(body("pick a number between 1 and 10"))).toolCalls, [{ name: "finish", arguments: { outcome: { kind: "literal", value: 7 } } }]);
  assert.deepEqual((await standInReply(body("pick a number between 10 and -2"))).toolCalls?.[0].arguments, { outcome: { kind: "literal", value: 6 } });
  const unknown = (await standInReply(body("write a poem"))).toolCalls?.[0].arguments as { outcome: { kind: string; reason: string } };
  assert.equal(unknown.outcome.kind, "error");
  assert.match(
    unknown.outcome.reason,
    /is not a model: it knows only the blocks of the README's examples .* and `pick a number between A and B`, and this block is "write a poem"/,
  );
});

test("the tickets loop with the value read through get_binding", async () => {
  const responder: Responder = (req) => {
    const statement = stable(req).statement as string;
    const results = toolMessages(req);
    if (statement.startsWith("summarize")) return finishCall({ kind: "literal", value: "done" });
    if (results.length === 0) return { toolCalls: [toolCall("get_binding", { name: "ticket", result_id: "t" })] };
    const text = String(results[0].result.value);
    return finishCall({ kind: "literal", value: /charg|refund/i.test(text) ? "billing" : "bug" });
  };
  const run = await runFixture("tickets.py", { responder });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(run.stdout, /'billing': \['I was charged twice', 'Refund please'\]/);
  assert.equal(run.requests.length, 9);
});

test("a typed result that violates the annotation is repaired", async () => {
  const run = await runFixture("one_block.py", {
    script: [finishCall({ kind: "literal", value: "medium" }), finishCall({ kind: "literal", value: "high" })],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "high str\n");
  const feedback = toolMessages(run.requests[1])[0];
  assert.equal(feedback.status, "error");
  assert.match(feedback.message, /severity: expected Literal\['low', 'high'\], got str 'medium'/);
});

test("evaluate then finish(reference) returns the same object", async () => {
  const run = await runFixture("same_object.py", {
    script: [{ toolCalls: [toolCall("evaluate", { code: "items", result_id: "it" }), toolCall("finish", { outcome: { kind: "reference", id: "it" } })] }],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "True [3, 1, 2]\n");
  assert.equal(run.requests.length, 1);
});

test("a statement block: execute then finish(none)", async () => {
  const run = await runFixture("statement.py", {
    script: [{ toolCalls: [toolCall("execute", { code: "items.append(3)" }), toolCall("finish", { outcome: { kind: "none" } })] }],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "[1, 2, 3]\n");
  assert.equal(stable(run.requests[0]).requires_result, false);
});

test("an invalid batch runs nothing: the execute before a bad terminal has no effect", async () => {
  const run = await runFixture("statement.py", {
    script: [
      { toolCalls: [toolCall("execute", { code: "items.append(99)" }), toolCall("finish", { outcome: { kind: "reference", id: "nothing" } })] },
      finishCall({ kind: "none" }),
    ],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "[1, 2]\n");
  const [skipped, failing] = toolMessages(run.requests[1]);
  assert.deepEqual(skipped, { status: "skipped", message: "batch rejected; no tool ran" });
  assert.equal(failing.status, "error");
});

test("a block in a function called twice is two invocations with their own frames", async () => {
  const responder: Responder = (req) => {
    const name = live(req).related_objects.find((o: { name: string }) => o.name === "name").value;
    return finishCall({ kind: "literal", value: `Hello, ${name}!` });
  };
  const run = await runFixture("in_function.py", { responder });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "Hello, Ana!\nHello, Bo!\n");
  assert.equal(stable(run.requests[0]).output_type, "str", "the return annotation is the expected type");
});

test("a block in a coroutine lets other tasks run while the model answers", async () => {
  const run = await runFixture("in_coroutine.py", { script: [{ ...finishCall({ kind: "literal", value: 7 }), delayMs: 400 }] });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(run.stdout, /'answer 7'/);
  assert.match(run.stdout, /ticks before the answer: 5/);
});

test("a float target keeps 3.0 a float", async () => {
  const run = await runFixture("float_value.py", { script: [{ toolCalls: [toolCall("finish", '{"outcome":{"kind":"literal","value":3.0}}')] }] });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "3.0\n");
});

test("execute_code denied: evaluate/execute are not offered, a literal still works", async () => {
  const run = await runFixture(
    "one_block.py",
    { script: [finishCall({ kind: "literal", value: "low" })] },
    { toml: 'version = 3\npermissions = ["network"]\n\n[model]\nmodel = "test-model"\napi_base = "$URL"\n' },
  );
  assert.equal(run.exitCode, 0, run.stderr);
  const offered = run.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name);
  assert.ok(!offered.includes("evaluate") && !offered.includes("execute"), `offered: ${offered}`);
  assert.ok(offered.includes("finish"));
});

test("non-JSON tool arguments are an invalid batch the model is told about, then repaired", async () => {
  const run = await runFixture("one_block.py", {
    script: [{ toolCalls: [toolCall("finish", "{outcome: high}")] }, finishCall({ kind: "literal", value: "high" })],
  });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "high str\n");
  const [feedback] = toolMessages(run.requests[1]);
  assert.equal(feedback.status, "error");
  assert.match(feedback.message, /JSON/);
});

test("a block's request lists the frame's values, and none of its modules, functions, classes or typing forms", async () => {
  const run = await runFixture("module_names.py", { script: [finishCall({ kind: "literal", value: 2 })] });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "2 2 3 Report json / OrderedDict\n");
  const { related_objects: related, frame_objects: listed } = live(run.requests[0]);
  assert.deepEqual(
    related.map((o: { name: string }) => o.name),
    ["limit"],
  );
  assert.deepEqual(
    listed.map((o: { name: string }) => o.name),
    ["labels"],
  );
});
