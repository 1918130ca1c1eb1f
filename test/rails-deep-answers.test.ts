// End-to-end: deep answers (SPEC §9: answers nest at least 128 levels; a deeper one is a tool
// error, never a crash). A value nested 150 levels reaches the program, type-checked, even from a
// frame already deep in recursion; one nested 1,000 levels (which crashed the bridge's channel
// with exit 70) is refused in batch validation with a message, and the model's next answer ends
// the block.

import assert from "node:assert/strict";
import { test } from "node:test";
import { finishCall, toolCall } from "./support/loopback-model.js";
import { runWithModel, toolMessages } from "./support/run-with-model.js";

const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const finishRaw = (value: string) => ({ toolCalls: [toolCall("finish", `{"outcome":{"kind":"literal","value":${value}}}`)] });

test("an answer nested 150 levels reaches the program, type-checked, from a frame 600 calls deep", async () => {
  const main = `def depth(value):
    value = list(value)
    while isinstance(value, list) and value:
        value = value[0]
    return value

def deep(n):
    if n:
        return deep(n - 1)
    answer: list = nest a list
    return answer

answer = deep(600)
levels = 0
while isinstance(answer, list):
    answer, levels = answer[0], levels + 1
print(levels, answer)
`;
  const run = await runWithModel({ "main.py": main }, [finishRaw(nested(150))]);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "150 1\n");
});

test("an answer nested 1,000 levels is a batch error the model can recover from, not a crash", async () => {
  const run = await runWithModel({ "main.py": "x = nest a list\nprint(x)\n" }, [finishRaw(nested(1000)), finishCall({ kind: "literal", value: [1] })]);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "[1]\n");
  const [refusal] = toolMessages(run.requests[1]);
  assert.equal(refusal.status, "error");
  assert.match(refusal.message!, /^finish: arguments nest more than 160 levels deep; send a flatter value/);
});
