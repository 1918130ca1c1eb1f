// End-to-end: the cap on a model answer's body (`max_response_mb`, default 32). An answer larger
// than the cap is not read on — the connection is dropped, the host never holds it — and the block
// fails with an AIError naming the setting; an answer within it is used as usual. (A streamed
// answer is held to the same cap: test/model-client-failures.test.ts.)

import assert from "node:assert/strict";
import { test } from "node:test";
import { finishCall, toolCall } from "./support/loopback-model.js";
import { runWithModel } from "./support/run-with-model.js";

const MAIN = `from aiython import AIError
try:
    print(answer the question)
except AIError as error:
    print("AIError:", error)
`;
const TOML = 'version = 3\nmodel = { model = "test-model", api_base = "$URL" }\nmax_response_mb = 1\n';

test("an answer past max_response_mb fails the block with a message naming it", async () => {
  const huge = { ...finishCall({ kind: "literal", value: "x" }), content: "padding ".repeat(400_000) };
  const run = await runWithModel({ "main.py": MAIN }, [huge], { toml: TOML });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(
    run.stdout,
    /^AIError: the answer from .* for route test-model was larger than 1 MB and was not read \(max_response_mb = 1\); raise max_response_mb in aiython\.toml/,
  );
});

test("an answer within max_response_mb is used", async () => {
  const run = await runWithModel({ "main.py": MAIN }, [{ ...finishCall({ kind: "literal", value: "42" }), content: "padding ".repeat(50_000) }], { toml: TOML });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "42\n");
});

test("an answer larger than a frame's piece reaches the program whole: characters cut nowhere, escapes kept", async () => {
  const main = `text: str = the text to show
print(len(text), text == 'é😀"\\\\' * 1_000_000)
`;
  const value = 'é😀"\\'.repeat(1_000_000);
  const run = await runWithModel({ "main.py": main }, [finishCall({ kind: "literal", value })], { toml: TOML.replace("max_response_mb = 1", "max_response_mb = 32") });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "4000000 True\n");
});

test("a literal past the size whose garbage the host collects between steps reaches the program whole, its float a float", async () => {
  // Over large-garbage.ts's 8 MiB: the host drops its parsed copy of the value once checked; the
  // bridge reads it from the arguments' text, escapes and all.
  const main = `data: dict = the data
print(type(data["f"]).__name__, data["f"], len(data["s"]), data["s"] == 'ab"c\\\\' * 2_000_000)
`;
  const raw = `{"outcome": {"kind": "literal", "value": {"f": 3.0, "s": ${JSON.stringify('ab"c\\'.repeat(2_000_000))}}}}`;
  assert.ok(raw.length > 8 * 1024 * 1024, `the arguments are past the size (${raw.length} characters)`);
  const reply = { toolCalls: [toolCall("finish", raw)] };
  const run = await runWithModel({ "main.py": main }, [reply], { toml: TOML.replace("max_response_mb = 1", "max_response_mb = 32") });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "float 3.0 10000000 True\n");
});
