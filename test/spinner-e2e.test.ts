// End-to-end: while a model request is in flight and stderr is a terminal, a spinner on stderr
// names the block's file:line and the elapsed seconds, and is erased (SPEC §2); with stderr not a
// terminal, nothing of it appears. `script` gives the CLI a pseudo-terminal.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { aiython, cleanEnv, CLI, ROOT } from "./support/run-cli.js";
import { finishCall, startLoopbackModel } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

const hasScript = fs.existsSync("/usr/bin/script");

function project(): string {
  return tempProject({ "one_block.py": { copy: path.join(ROOT, "test", "fixtures", "ai", "one_block.py") } }, { prefix: "aiython-spinner-" });
}

test("on a terminal: the spinner shows the block's line and is erased; the program's output is intact", { skip: !hasScript && "needs script(1)" }, async () => {
  const server = await startLoopbackModel({ script: [{ ...finishCall({ kind: "literal", value: "high" }), delayMs: 700 }] });
  try {
    const dir = project();
    const env = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url, TERM: "xterm" });
    const result = await execa("script", ["-qec", `${CLI} --no-journal one_block.py`, "/dev/null"], { cwd: dir, env, extendEnv: false, reject: false });
    const screen = String(result.stdout);
    assert.equal(result.exitCode, 0, screen);
    assert.match(screen, /aiython: one_block\.py:4 \d+\.\ds/);
    assert.match(screen, /\r\x1b\[2K/, "the line is erased");
    assertCleanLineBefore(screen, "high str");
  } finally {
    await server.close();
  }
});

test("on a terminal: the program's first byte after the block starts on a clean line, every time", { skip: !hasScript && "needs script(1)" }, async () => {
  const server = await startLoopbackModel({ script: Array.from({ length: 3 }, () => ({ ...finishCall({ kind: "literal", value: "high" }), delayMs: 350 })) });
  try {
    const dir = project();
    const env = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url, TERM: "xterm" });
    for (let run = 0; run < 3; run++) {
      const result = await execa("script", ["-qec", `${CLI} --no-journal one_block.py`, "/dev/null"], { cwd: dir, env, extendEnv: false, reject: false });
      assertCleanLineBefore(String(result.stdout), "high str");
    }
  } finally {
    await server.close();
  }
});

/** After the last spinner frame before `output`, the line was erased. */
function assertCleanLineBefore(screen: string, output: string): void {
  const before = screen.slice(0, screen.indexOf(output));
  assert.ok(before.length < screen.length, `the program printed ${output}: ${JSON.stringify(screen)}`);
  const lastFrame = Math.max(...["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"].map((frame) => before.lastIndexOf(frame)));
  assert.ok(before.lastIndexOf("\r\x1b[2K") > lastFrame, `the spinner's line is still there before the program's output: ${JSON.stringify(before.slice(-80))}`);
}

test("not a terminal: no spinner at all", async () => {
  const server = await startLoopbackModel({ script: [{ ...finishCall({ kind: "literal", value: "low" }), delayMs: 400 }] });
  try {
    const result = await aiython(["--no-journal", "one_block.py"], { cwd: project(), env: cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url }) });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "low str\n");
    assert.equal(result.stderr, "");
  } finally {
    await server.close();
  }
});

test("on a terminal, while other threads of the program may print: no spinner in front of their output", { skip: !hasScript && "needs script(1)" }, async () => {
  const server = await startLoopbackModel({ script: [{ ...finishCall({ kind: "literal", value: "done" }), delayMs: 900 }] });
  try {
    const ticking = [
      "import threading, time",
      "def tick():",
      "    for n in range(8):",
      "        print('tick', n, flush=True)",
      "        time.sleep(0.1)",
      "worker = threading.Thread(target=tick)",
      "worker.start()",
      "answer = say that the work is done",
      "worker.join()",
      "print(answer)",
    ].join("\n");
    const dir = tempProject({ "ticks.py": `${ticking}\n` }, { prefix: "aiython-spinner-" });
    const env = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url, TERM: "xterm" });
    const result = await execa("script", ["-qec", `${CLI} --no-journal ticks.py`, "/dev/null"], { cwd: dir, env, extendEnv: false, reject: false, stripFinalNewline: false });
    const screen = String(result.stdout);
    assert.equal(result.exitCode, 0, screen);
    assert.doesNotMatch(screen, /aiython: ticks\.py:8/, "no spinner");
    assert.equal(screen.replaceAll("\r", ""), `${Array.from({ length: 8 }, (_, n) => `tick ${n}\n`).join("")}done\n`);
  } finally {
    await server.close();
  }
});
