// A debugger's control flow is the user's, never a failure for the model (SPEC §4.2): quitting
// pdb at a breakpoint() raises bdb.BdbQuit in the program's frame, and the program ends as under
// python3 even with a model that would complete every pause — which is never asked.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { CLI, cleanEnv, PYTHON, ROOT } from "./support/run-cli.js";
import { startLoopbackModel, toolCall } from "./support/loopback-model.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");

test("quitting pdb ends the program as under python3; the model is never asked", async () => {
  const server = await startLoopbackModel({ responder: () => ({ toolCalls: [toolCall("recover", { action: "complete", explanation: "carry on" })] }) });
  try {
    const options = { cwd: FIXTURES, input: "q\n", extendEnv: false, reject: false, stripFinalNewline: false, timeout: 60_000 };
    const theirs = await execa(PYTHON, ["quit_pdb.py"], { ...options, env: cleanEnv() });
    const ours = await execa(CLI, ["--no-journal", "quit_pdb.py"], {
      ...options,
      env: cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test" }),
    });
    assert.match(String(theirs.stderr), /bdb\.BdbQuit\n$/);
    assert.equal(ours.stdout, theirs.stdout);
    assert.equal(ours.stderr, theirs.stderr);
    assert.equal(ours.exitCode, theirs.exitCode);
    assert.deepEqual(
      server.requests.filter((r) => r.path.endsWith("/chat/completions")),
      [],
      "no model request",
    );
  } finally {
    await server.close();
  }
});
