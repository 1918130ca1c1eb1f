// End-to-end: `--approve` (SPEC §9) in a real terminal (tmux). Each call with effects is shown
// on /dev/tty with its frame and line — never on the program's stdin or stdout, which here are
// a file and a file — and answered yes / no / yes to all for this block. A "no" is the tool error
// "denied by the user", which the model works around; without a terminal, effects are refused.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { aiython, CLI, cleanEnv } from "./support/run-cli.js";
import { startLoopbackModel, toolCall, type LoopbackModel, type ScriptedReply } from "./support/loopback-model.js";
import { toolMessages } from "./support/run-with-model.js";
import { tempProject } from "./support/temp-project.js";
import { tmuxPane } from "./support/tmux.js";

const MAIN = "name = input()\nx = 1\nfor i in range(2):\n    bump x for name\nprint('x =', x, 'name =', name)\n";
const bump: ScriptedReply = { toolCalls: [toolCall("execute", { code: "x += 1" }), toolCall("finish", { outcome: { kind: "none" } })] };
const done: ScriptedReply = { toolCalls: [toolCall("finish", { outcome: { kind: "none" } })] };

const servers: LoopbackModel[] = [];
after(async () => Promise.all(servers.map((s) => s.close())));

async function inTerminal(script: ScriptedReply[]) {
  const server = await startLoopbackModel({ script });
  servers.push(server);
  const dir = tempProject({ "main.py": MAIN, "input.txt": "Ada\n" });
  const env = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-approve" });
  const pane = await tmuxPane(dir, `'${CLI}' --approve main.py < input.txt > out.txt 2> err.txt`, env);
  return { server, dir, pane, output: () => fs.readFileSync(path.join(dir, "out.txt"), "utf8") };
}

test("yes runs the call; the prompt shows the call, its frame and line, on the terminal only", async () => {
  const { server, pane, output, dir } = await inTerminal([bump, bump]);
  try {
    const screen = await pane.waitFor(/Allow it\?/);
    assert.match(screen, /aiython --approve: the model wants to execute code in the frame \(AI block at main\.py:4\)/);
    assert.match(screen, /│ x \+= 1/);
    await pane.keys("y", "Enter");
    await pane.waitFor(/Allow it\?[\s\S]*Allow it\?/);
    await pane.keys("y", "Enter");
    assert.equal(await pane.status(), 0, fs.readFileSync(path.join(dir, "err.txt"), "utf8"));
    assert.equal(output(), "x = 3 name = Ada\n", "stdout holds the program's output only; stdin fed the program, not the prompt");
    assert.deepEqual(server.problems, []);
  } finally {
    await pane.close();
  }
});

test("no is a tool error the model can work around; yes to all covers the block's later calls", async () => {
  const denied = await inTerminal([bump, done, bump]);
  try {
    await denied.pane.waitFor(/Allow it\?/);
    await denied.pane.keys("n", "Enter");
    await denied.pane.waitFor(/Allow it\?[\s\S]*Allow it\?/);
    await denied.pane.keys("a", "Enter");
    assert.equal(await denied.pane.status(), 0);
    assert.equal(denied.output(), "x = 2 name = Ada\n");
    const chats = denied.server.requests.filter((r) => r.path.endsWith("/chat/completions"));
    assert.equal(chats.length, 3);
    assert.deepEqual(toolMessages(chats[1])[0], { status: "error", error: "ApprovalDenied", message: "denied by the user" });
    const screen = await denied.pane.screen();
    assert.equal(screen.match(/Allow it\?/g)?.length, 2, "the second visit of the block asked nothing");
  } finally {
    await denied.pane.close();
  }
});

test("without a terminal, effects are refused and stderr says why", async () => {
  const server = await startLoopbackModel({ script: [bump, done, done] });
  servers.push(server);
  const dir = tempProject({ "main.py": MAIN });
  const env = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-approve" });
  // detached: a new session, so the process has no controlling terminal and /dev/tty cannot be opened.
  const run = await aiython(["--approve", "main.py"], { cwd: dir, env, input: "Ada\n", detached: true });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "x = 1 name = Ada\n");
  assert.equal(run.stderr, "aiython: --approve: no terminal to ask on (/dev/tty cannot be opened), so the model's effects are refused\n");
  const chats = server.requests.filter((r) => r.path.endsWith("/chat/completions"));
  assert.deepEqual(toolMessages(chats[1])[0], { status: "error", error: "ApprovalDenied", message: "denied by the user" });
});
