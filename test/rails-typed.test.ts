// End-to-end: typed rebinding (SPEC §6). `x: int` rebound to a str through `execute` or
// `set_binding` keeps its int, and the model gets a tool error naming the name and both types;
// right-typed rebinding goes through.

import assert from "node:assert/strict";
import { test } from "node:test";
import { toolCall, type RecordedRequest, type ScriptedReply } from "./support/loopback-model.js";
import { runWithModel, toolMessages } from "./support/run-with-model.js";

test("execute and set_binding cannot leave a typed name with a wrong-typed value", async () => {
  const main = ["def report(limit: int):", "    count: int = 1", "    adjust the count", "    print(limit, count)", "x: int = 1", "fix up x", "print(x)", "report(5)", ""].join(
    "\n",
  );
  const steps: ((request: RecordedRequest) => ScriptedReply)[] = [
    () => ({ toolCalls: [toolCall("execute", { code: 'x = "oops"' })] }),
    () => ({ toolCalls: [toolCall("evaluate", { code: '"oops"' })] }),
    (request) => ({ toolCalls: [toolCall("set_binding", { name: "x", handle: (toolMessages(request).at(-1)!.result as { handle: string }).handle })] }),
    () => ({ toolCalls: [toolCall("execute", { code: "x = 2" }), toolCall("finish", { outcome: { kind: "none" } })] }),
    () => ({ toolCalls: [toolCall("execute", { code: "count = None; limit = 'five'" })] }),
    () => ({ toolCalls: [toolCall("execute", { code: "count = 3" }), toolCall("finish", { outcome: { kind: "none" } })] }),
  ];
  const run = await runWithModel({ "main.py": main }, (request, index) => steps[index](request));
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "2\n5 3\n");
  const [rebound] = toolMessages(run.requests[1]);
  assert.equal(rebound.error, "TypeContractError");
  assert.match(rebound.message!, /execute left a typed name with a value of the wrong type: x: expected int, got str 'oops'; x was given back its previous value/);
  const bound = toolMessages(run.requests[3]).at(-1)!;
  assert.equal(bound.error, "TypeContractError");
  assert.match(bound.message!, /^x: expected int, got str 'oops'; x keeps its value$/);
  const inFunction = toolMessages(run.requests[5]).at(-1)!;
  assert.match(inFunction.message!, /^execute left typed names with values of the wrong type: /);
  assert.match(inFunction.message!, /count: expected int, got None; count was given back its previous value/);
  assert.match(inFunction.message!, /limit: expected int, got str 'five'; limit was given back its previous value/);
});
