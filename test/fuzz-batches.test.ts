// Property tests (fast-check) of batch validation (SPEC §5.3) and permissions (§9): random
// batches of tool calls — known and unknown tools, ids repeated or empty, arguments that are
// well-formed, nearly so, or not JSON at all, outcomes of every kind, any pause and any subset of
// permissions. Properties: validation never throws and its verdict keeps the §5.3 invariants;
// through the real loop, nothing of a batch runs unless the batch is valid and permitted, and a
// valid one runs in order. Each case has a time bound; FC_SEED=<n> replays a reported failure.

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { validateBatch } from "../src/invocation/batch-validation.js";
import { runInvocation } from "../src/invocation/orchestrator.js";
import { deniedInBatch } from "../src/invocation/permissions.js";
import { isTerminal, TOOL_NAMES } from "../src/invocation/tools.js";
import type { ToolCall } from "../src/model-port.js";
import { ScriptedModel } from "./support/scripted-model.js";
import { FakeFrame } from "./support/fake-frame.js";
import { ALL_PERMISSIONS, checkpoint, expressionBlock, settings, statementBlock } from "./support/pause-requests.js";

const RUNS = 1000;
const PER_CASE_MS = 2000;
const seed = process.env.FC_SEED === undefined ? {} : { seed: Number(process.env.FC_SEED) };

const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("x", "1 + 1", "ticket", "object-1", "r1", "", "import os"));
const outcome = fc.record(
  {
    kind: fc.constantFrom("literal", "expression", "reference", "handle", "none", "error", "bogus"),
    value: fc.jsonValue({ maxDepth: 2 }),
    code: text,
    id: fc.oneof(text, fc.constantFrom("c1", "c2", "r1", "object-1", "object-9")),
    reason: text,
    missing_capability: text,
  },
  { requiredKeys: ["kind"] },
);
const argumentsFor: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  evaluate: fc.record({ code: text, result_id: fc.constantFrom("r1", "r2", "c1", "") }, { requiredKeys: [] }),
  execute: fc.record({ code: text }, { requiredKeys: [] }),
  get_binding: fc.record({ name: text, result_id: fc.constantFrom("r1", "r2") }, { requiredKeys: [] }),
  set_binding: fc.record({ name: text, handle: fc.constantFrom("object-1", "object-x", "1") }, { requiredKeys: [] }),
  inspect: fc.record({ handle: fc.constantFrom("object-1", "bad"), depth: fc.integer({ min: -1, max: 5 }), limit: fc.integer({ min: 0, max: 200 }) }, { requiredKeys: [] }),
  get_frame_code: fc.record({ frame: fc.constantFrom("active", "origin", "other") }, { requiredKeys: [] }),
  frames: fc.record({ extra: text }, { requiredKeys: [] }),
  finish: fc.record({ outcome, extra: text }, { requiredKeys: [] }),
  recover: fc.record({ action: fc.constantFrom("complete", "retry", "reraise", "skip"), outcome, explanation: text }, { requiredKeys: [] }),
  read_code: fc.record({ path: text, start_line: fc.integer({ min: -1, max: 9 }) }, { requiredKeys: [] }),
  search_code: fc.record({ text, path: text }, { requiredKeys: [] }),
  list_code_files: fc.record({ path: text }, { requiredKeys: [] }),
};
const name = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...TOOL_NAMES) }, { weight: 1, arbitrary: fc.constantFrom("unknown", "", "Finish", "run_plan") });
const rawArguments = (tool: string) =>
  fc.oneof(
    { weight: 6, arbitrary: (argumentsFor[tool] ?? fc.constant({})).map((args) => JSON.stringify(args)) },
    { weight: 1, arbitrary: fc.json() },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 1, arbitrary: fc.constantFrom("", "  ", "{", "NaN", '{"code":"1","code":"2"}', '{"value":1e400}', "[1]", "null", '{"depth":9007199254740993}') },
  );
const call: fc.Arbitrary<ToolCall> = fc
  .tuple(fc.oneof(fc.constantFrom("c1", "c2", "c3", "c4", ""), fc.string({ minLength: 1, maxLength: 6 })), name)
  .chain(([id, tool]) => rawArguments(tool).map((args) => ({ id, type: "function" as const, function: { name: tool, arguments: args } })));
const pauses = [expressionBlock(), statementBlock(), checkpoint(), checkpoint({ retryAllowed: false }), checkpoint({ target: null })];
const pause = fc.constantFrom(...pauses);
const permissions = fc.oneof(
  fc.constant(new Set(ALL_PERMISSIONS)),
  fc.subarray([...ALL_PERMISSIONS]).map((list) => new Set(list)),
);

// Well-formed calls, so that a good share of batches is valid and the "runs in order" property is exercised.
const wellFormed: fc.Arbitrary<[string, Record<string, unknown>]> = fc.oneof(
  fc.record({ code: fc.constantFrom("x", "len(items)", "1 + 1") }).map((a) => ["evaluate", a] as [string, Record<string, unknown>]),
  fc.record({ code: fc.constantFrom("x = 1", "items.append(2)") }).map((a) => ["execute", a] as [string, Record<string, unknown>]),
  fc.record({ name: fc.constantFrom("ticket", "x") }).map((a) => ["get_binding", a] as [string, Record<string, unknown>]),
  fc.record({ name: fc.constant("x"), handle: fc.constant("object-1") }).map((a) => ["set_binding", a] as [string, Record<string, unknown>]),
  fc
    .record({ handle: fc.constant("object-1"), depth: fc.integer({ min: 1, max: 3 }), limit: fc.integer({ min: 1, max: 100 }) })
    .map((a) => ["inspect", a] as [string, Record<string, unknown>]),
  fc.constant(["frames", {}] as [string, Record<string, unknown>]),
  fc.constant(["get_frame_code", {}] as [string, Record<string, unknown>]),
);
const terminalFor = (request: (typeof pauses)[number]): fc.Arbitrary<[string, Record<string, unknown>]> =>
  request.mode === "recovery"
    ? fc.constantFrom<[string, Record<string, unknown>]>(["recover", { action: "reraise" }], ["recover", { action: "complete" }], ["recover", { action: "retry" }])
    : request.requires_result
      ? fc.constantFrom<[string, Record<string, unknown>]>(["finish", { outcome: { kind: "literal", value: "bug" } }], ["finish", { outcome: { kind: "error", reason: "no" } }])
      : fc.constantFrom<[string, Record<string, unknown>]>(["finish", { outcome: { kind: "none" } }], ["finish", { outcome: { kind: "error", reason: "no" } }]);
const wellFormedBatch = (request: (typeof pauses)[number]): fc.Arbitrary<ToolCall[]> =>
  fc
    .tuple(fc.array(wellFormed, { maxLength: 4 }), fc.option(terminalFor(request), { nil: undefined }))
    .map(([calls, end]) =>
      [...calls, ...(end ? [end] : [])].map(([tool, args], i) => ({ id: `w${i}`, type: "function" as const, function: { name: tool, arguments: JSON.stringify(args) } })),
    );
/** A pause and a batch for it: half well-formed (often valid), half anything at all. */
const batchAndPause = pause.chain((request) =>
  fc.tuple(
    fc.oneof(
      wellFormedBatch(request).filter((calls) => calls.length > 0),
      fc.array(call, { minLength: 1, maxLength: 6 }),
    ),
    fc.constant(request),
  ),
);

test(`batch validation: ${RUNS} random batches, never a throw, and every verdict keeps SPEC §5.3's rules`, () => {
  fc.assert(
    fc.property(batchAndPause, permissions, fc.subarray(["c1", "c3"]), ([calls, request], granted, used) => {
      const verdict = validateBatch(calls, { request, permissions: granted, usedCallIds: new Set(used) });
      if (!verdict.valid) {
        assert.equal(verdict.problems.length, calls.length);
        assert.ok(verdict.problems.some((problem) => typeof problem === "string" && problem.length > 0));
        return;
      }
      const ids = verdict.calls.map((c) => c.id);
      assert.equal(new Set(ids).size, ids.length, "unique ids");
      assert.ok(
        ids.every((id) => id !== "" && !used.includes(id)),
        "ids non-empty and new",
      );
      const terminals = verdict.calls.filter((c) => isTerminal(c.name));
      assert.ok(terminals.length <= 1 && (terminals.length === 0 || isTerminal(verdict.calls.at(-1)!.name)), "one terminal at most, last");
      for (const c of verdict.calls) assert.equal(typeof c.args, "object");
      if (terminals[0]?.name === "recover" && terminals[0].args.action === "retry") assert.equal(request.recovery?.retry_allowed, true);
    }),
    { numRuns: RUNS, ...seed },
  );
});

test(`the loop: ${RUNS} random batches, no effect from an invalid or unpermitted batch, a valid one runs in order`, async () => {
  await fc.assert(
    fc.asyncProperty(batchAndPause, permissions, async ([calls, request], granted) => {
      const model = new ScriptedModel([{ calls }, { calls: [closing(request)] }]);
      const frame = new FakeFrame();
      let firstRoundOps = 0;
      await runInvocation({
        id: "fuzz",
        request,
        settings: settings({ permissions: granted, timeoutSeconds: 5 }),
        model,
        frame: {
          op: (op, args) => {
            if (model.requests.length === 1) firstRoundOps += 1;
            return frame.op(op, args);
          },
        },
      });
      // Without a host tool port the code tools are not served, so the loop treats read_code as not granted.
      const effective = new Set([...granted].filter((p) => p !== "read_code"));
      const verdict = validateBatch(calls, { request, permissions: effective, usedCallIds: new Set() });
      if (deniedInBatch(calls, effective) !== null || !verdict.valid) {
        assert.equal(firstRoundOps, 0, "nothing of the batch reached the frame");
        return;
      }
      const reaching = verdict.calls.filter((c) => !(c.name === "finish" && (c.args.outcome as { kind: string }).kind === "error"));
      assert.deepEqual(
        frame.names().slice(0, firstRoundOps),
        reaching.map((c) => c.name),
        "the batch ran in order",
      );
    }),
    { numRuns: RUNS, timeout: PER_CASE_MS, ...seed },
  );
});

function closing(request: (typeof pauses)[number]): ToolCall {
  const args = request.mode === "recovery" ? { action: "reraise" } : { outcome: { kind: "error", reason: "fuzz done" } };
  return { id: "z-end", type: "function", function: { name: request.mode === "recovery" ? "recover" : "finish", arguments: JSON.stringify(args) } };
}
