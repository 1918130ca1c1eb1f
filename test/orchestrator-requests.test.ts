// The model tool loop (SPEC §5), what the model is sent, driven by a scripted model and a fake frame:
// the system prompt, the stable and live messages (canonical JSON, byte-identical across visits of a
// block), the tools offered and their shared lists, and the request size of a small block.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { PauseRequest } from "../src/bridge/protocol.js";
import { SYNTAX_SYSTEM_PROMPT, canonicalJson } from "../src/invocation/prompt.js";
import { SIMPLE_BLOCK_REQUEST_BUDGET_BYTES } from "../src/defaults.js";
import { toolCall } from "./support/scripted-model.js";
import { checkpoint, expressionBlock, settings } from "./support/pause-requests.js";
import { literal, run } from "./support/invocation-run.js";

test("a small block finishes in one response with a literal", async () => {
  const { end, stats, model, frame } = await run({ steps: [{ calls: [toolCall("c1", "finish", literal("billing"))] }] });
  assert.deepEqual(end, { status: "finished" });
  assert.equal(model.requests.length, 1);
  assert.deepEqual(frame.ops, [{ name: "finish", args: { outcome: { kind: "literal", value: "billing" }, call_id: "c1" } }]);
  // The literal crosses once: in the model's own text, not again in the outcome.
  assert.deepEqual(frame.sentOutcomes, [{ kind: "literal" }]);
  assert.equal(JSON.parse(frame.rawArguments[0]).outcome.value, "billing");
  const request = model.requests[0].request;
  assert.equal(request.toolChoice, "required");
  assert.deepEqual(
    request.messages.map((m) => m.role),
    ["system", "user", "user"],
  );
  assert.equal(request.messages[0].content, SYNTAX_SYSTEM_PROMPT);
  // §5.1: nothing about recovery in an AI block's request, and no get_frame_code (its code is code_context).
  assert.doesNotMatch(SYNTAX_SYSTEM_PROMPT, /recover|retry|reraise/);
  assert.deepEqual(
    request.tools.map((t) => t.function.name),
    ["evaluate", "execute", "get_binding", "set_binding", "inspect", "frames", "finish"],
  );
  for (const tool of request.tools) assert.equal(tool.function.parameters.additionalProperties, false, tool.function.name);
  assert.deepEqual({ model_calls: stats.model_calls, tool_calls: stats.tool_calls, tool_counts: stats.tool_counts }, { model_calls: 1, tool_calls: 1, tool_counts: { finish: 1 } });
});

test("the stable message holds the block and the live message holds the values", async () => {
  const { model } = await run({ steps: [{ calls: [toolCall("c1", "finish", literal("bug"))] }] });
  const [, stable, live] = model.requests[0].request.messages as { content: string }[];
  const block = expressionBlock();
  assert.deepEqual(JSON.parse(stable.content), {
    code_context: block.code_context,
    hints: { prompts: [] },
    location: block.location,
    mode: "syntax",
    output_schema: { enum: ["bug", "billing"] },
    output_type: "Literal['bug', 'billing']",
    permissions: { execute_code: true },
    requires_result: true,
    statement: "classify this ticket",
    target: "kind",
  });
  assert.deepEqual(JSON.parse(live.content), { frame_objects: [], related_objects: block.related_objects });
});

test(`a one-line block with small inputs sends a request body under ${SIMPLE_BLOCK_REQUEST_BUDGET_BYTES} bytes`, async () => {
  const { model } = await run({ steps: [{ calls: [toolCall("c1", "finish", literal("billing"))] }] });
  const bytes = model.requests[0].bodyBytes;
  console.log(`request body for a one-line block: ${bytes} bytes`);
  assert.ok(bytes < SIMPLE_BLOCK_REQUEST_BUDGET_BYTES, `${bytes} bytes`);
  const recovery = await run({ request: checkpoint(), steps: [{ calls: [toolCall("c1", "recover", { action: "reraise" })] }] });
  console.log(`request body for a one-line checkpoint: ${recovery.model.requests[0].bodyBytes} bytes`);
  assert.ok(recovery.model.requests[0].bodyBytes < SIMPLE_BLOCK_REQUEST_BUDGET_BYTES);
});

test("canonical JSON sorts keys at every level, is compact and refuses NaN and Infinity", () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: "é" }, u: undefined }), '{"a":{"c":"é","d":[1,{"y":null,"z":true}]},"b":1}');
  assert.throws(() => canonicalJson({ x: Number.NaN }), /\$\.x is NaN/);
  assert.throws(() => canonicalJson([Number.POSITIVE_INFINITY]), /\$\[0\] is Infinity/);
  assert.throws(() => canonicalJson({ f: () => 1 }), /function/);
});

test("the stable message is byte-identical across invocations of the same block", async () => {
  const first = await run({ steps: [{ calls: [toolCall("c1", "finish", literal("bug"))] }] });
  const changed = expressionBlock({ related_objects: [{ name: "ticket", type: "str", module: "builtins", qualname: "str", value: "The app crashes on start." }] });
  const second = await run({ request: changed, steps: [{ calls: [toolCall("c1", "finish", literal("bug"))] }] });
  const [a, b] = [first, second].map((r) => r.model.requests[0].request.messages as { content: string }[]);
  assert.equal(a[0].content, b[0].content);
  assert.equal(a[1].content, b[1].content);
  assert.notEqual(a[2].content, b[2].content);
  assert.equal(a[1].content, canonicalJson(JSON.parse(a[1].content)), "already canonical");
  assert.deepEqual(first.model.requests[0].request.tools, second.model.requests[0].request.tools);
  assert.ok(a[1].content.startsWith('{"code_context":{"end_line":11,"file":"tickets.py","source":'));
});

test("pauses of one kind share one fixed tool list; other kinds get their own", async () => {
  const { offeredToolSpecs, toolContext } = await import("../src/invocation/tools.js");
  const permissions = settings().permissions;
  const first = offeredToolSpecs(toolContext(expressionBlock(), permissions));
  const again = offeredToolSpecs(toolContext(expressionBlock({ statement: "another block of the same kind" }), permissions));
  assert.equal(again, first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0].function));
  const recovery = offeredToolSpecs(toolContext(checkpoint(), permissions));
  const noRetry = offeredToolSpecs(toolContext(checkpoint({ retryAllowed: false }), permissions));
  assert.notEqual(recovery, first);
  assert.notDeepEqual(noRetry, recovery);
  assert.deepEqual(JSON.parse(JSON.stringify(recovery)), JSON.parse(JSON.stringify(offeredToolSpecs(toolContext(checkpoint(), permissions)))));
  assert.ok(recovery.some((t) => t.function.name === "recover") && !first.some((t) => t.function.name === "recover"));
});

test("a block reached again gets the stable message of what it sends this time, remembered or not", async () => {
  const { stableMessage } = await import("../src/invocation/prompt.js");
  const expected = (request: PauseRequest, executeCode: boolean) =>
    canonicalJson({
      mode: request.mode,
      statement: request.statement,
      location: request.location,
      target: request.target,
      output_type: request.output_type,
      output_schema: request.output_schema,
      requires_result: request.requires_result,
      hints: request.hints,
      code_context: request.code_context,
      permissions: { execute_code: executeCode },
    });
  const visits = [
    expressionBlock({ block_id: "again.py:1" }),
    expressionBlock({ block_id: "again.py:1" }),
    expressionBlock({ block_id: "again.py:1", code_context: { file: "tickets.py", start_line: 7, end_line: 11, source: "changed = 1\n" } }),
    expressionBlock({ block_id: "again.py:1", hints: { prompts: ["be brief"] } }),
    expressionBlock({ block_id: "again.py:1" }),
  ];
  for (const request of visits) {
    for (const executeCode of [true, false, true]) {
      const permissions = new Set(executeCode ? ["execute_code"] : []);
      assert.equal(stableMessage(JSON.parse(JSON.stringify(request)), permissions), expected(request, executeCode));
    }
  }
});

test("the offered tool names shared between pauses are the tools unavailableReason lets each pause use", async () => {
  const { TOOL_NAMES, offeredToolNames, toolContext, unavailableReason } = await import("../src/invocation/tools.js");
  const mailbox = { status: () => ({ me: "a", peers: [], unread: 0 }) } as unknown as Parameters<typeof toolContext>[3];
  const statements = ["pick a number", "find which function in helper.py sets LIMIT", "read the module docs"];
  for (const pause of [...statements.map((statement) => expressionBlock({ statement })), checkpoint(), checkpoint({ retryAllowed: false })]) {
    for (const permissions of [[], ["execute_code"], ["read_code"], ["execute_code", "read_code"]]) {
      for (const box of [null, mailbox]) {
        // Twice: the second answer comes from the shared list the first one made.
        for (let i = 0; i < 2; i++) {
          const ctx = toolContext(pause, new Set(permissions), null, box);
          assert.deepEqual(
            offeredToolNames(ctx),
            TOOL_NAMES.filter((name) => unavailableReason(name, ctx) === null),
            `${pause.statement} ${permissions} ${box !== null}`,
          );
        }
      }
    }
  }
});
