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

test("a typed list changed in place is reported, and the block cannot finish until it is put right", async () => {
  const main = "xs: list[int] = [1]\nadd an item to xs\nprint(xs)\n";
  const run = await runWithModel({ "main.py": main }, [
    { toolCalls: [toolCall("execute", { code: "xs.append('two')" })] },
    { toolCalls: [toolCall("finish", { outcome: { kind: "none" } })] },
    { toolCalls: [toolCall("execute", { code: "xs[-1] = 2" }), toolCall("finish", { outcome: { kind: "none" } })] },
  ]);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "[1, 2]\n");
  const [changed] = toolMessages(run.requests[1]);
  assert.equal(changed.error, "TypeContractError");
  assert.match(changed.message!, /xs\[1\]: expected int, got str 'two'; xs was changed in place, which cannot be undone: put it right/);
  const finished = toolMessages(run.requests[2]).at(-1)!;
  assert.equal(finished.error, "TypeContractError");
  assert.match(finished.message!, /typed names still hold values of the wrong type after a change in place: xs\[1\]: expected int, got str 'two'/);
});

test("del of a typed name is undone; a function's `global x` is honoured even when it only reads x", async () => {
  const main = `count: int = 3
remove the count
print(count)
total = 0
def bump():
    global total
    print("before", total)
    set the total
print(bump(), total)
`;
  const run = await runWithModel({ "main.py": main }, [
    { toolCalls: [toolCall("execute", { code: "del count" })] },
    { toolCalls: [toolCall("finish", { outcome: { kind: "none" } })] },
    { toolCalls: [toolCall("execute", { code: "total = 5" }), toolCall("finish", { outcome: { kind: "none" } })] },
  ]);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "3\nbefore 0\nNone 5\n");
  const [deleted] = toolMessages(run.requests[1]);
  assert.equal(deleted.error, "TypeContractError");
  assert.match(deleted.message!, /count: expected int, but the code deleted it; count was given back its previous value/);
});
