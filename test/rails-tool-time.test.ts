// End-to-end: tool time (SPEC §9). A tool that does not return — a long sleep, a busy loop, on
// the main thread or another — is interrupted: past `tool_timeout` the model gets the tool error
// ToolTimeout and goes on; past the invocation's `timeout` the block fails with an AIError naming
// the tool and the timeout, and the program goes on as Python decides. A tool that will not stop
// when interrupted ends the run with a message instead of hanging it.

import assert from "node:assert/strict";
import { test } from "node:test";
import { finishCall, toolCall } from "./support/loopback-model.js";
import { runWithModel, toolMessages } from "./support/run-with-model.js";

const execute = (code: string) => ({ toolCalls: [toolCall("execute", { code })] });
const toml = (extra: string) => `version = 3\nmodel = { model = "test-model", api_base = "$URL" }\n${extra}\n`;
/** Bounds the whole run: a regression hangs until this, rather than for ever. */
const BOUND = { timeout: 20000 };

test("a tool that sleeps past the invocation's timeout fails the block with an AIError naming the tool; the program goes on", async () => {
  const main = `from aiython import AIError
print("before", flush=True)
try:
    x = wait for a long while
except AIError as error:
    print("AIError:", error)
print("after")
`;
  const started = Date.now();
  const run = await runWithModel({ "main.py": main }, [execute("import time; time.sleep(60)")], { toml: toml("timeout = 2"), execa: BOUND });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(
    run.stdout,
    "before\nAIError: the execute tool did not return within the 2 s timeout and was interrupted; raise timeout in aiython.toml or make the instruction simpler\nafter\n",
  );
  assert.ok(Date.now() - started < 15000, "ended soon after the timeout");
});

test("past tool_timeout a busy loop and a sleep are interrupted, on the main thread and another, and the model gets ToolTimeout", async () => {
  const main = `import threading
def work():
    print("thread:", compute the value)
thread = threading.Thread(target=work)
thread.start()
thread.join()
print("main:", compute it again)
`;
  const run = await runWithModel(
    { "main.py": main },
    [execute("while True:\n    pass"), finishCall({ kind: "literal", value: 1 }), execute("import time\ntime.sleep(60)"), finishCall({ kind: "literal", value: 2 })],
    { toml: toml("timeout = 30\ntool_timeout = 1"), execa: BOUND },
  );
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "thread: 1\nmain: 2\n");
  for (const request of [run.requests[1], run.requests[3]]) {
    const [result] = toolMessages(request);
    assert.equal(result.error, "ToolTimeout");
    assert.match(result.message!, /^execute did not return within 1 s \(tool_timeout\) and was interrupted/);
  }
});

test("a tool that catches the interruption and goes on ends the run with a message, not a hang", async () => {
  const main = 'print("before", flush=True)\nx = wait for a long while\nprint("never")\n';
  const stubborn = "import time\nwhile True:\n    try:\n        time.sleep(60)\n    except BaseException:\n        pass";
  const run = await runWithModel({ "main.py": main }, [execute(stubborn)], {
    toml: toml("timeout = 1"),
    env: { AIYTHON_TOOL_INTERRUPT_GRACE_MS: "1000" },
    execa: BOUND,
  });
  assert.equal(run.exitCode, 1);
  assert.equal(run.stdout, "before\n");
  assert.match(run.stderr, /^aiython: main\.py:2: the execute tool ran past its time and was still running 1 s after it was interrupted/);
});
