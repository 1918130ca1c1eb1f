// `--batch=dir:PATH` (SPEC §14) through the built CLI, with a stand-in for `vllm run-batch`: the
// run writes PATH/requests-RUN-N.jsonl, prints the command that processes it and `aiython resume
// RUN`, and ends with exit 76; resume reads PATH/results-RUN-N.jsonl and goes on. Nothing goes to
// the server.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { batchProject } from "./support/batch-project.js";
import { PYTHON, ROOT } from "./support/run-cli.js";

const ENGINE = path.join(ROOT, "test", "support", "stand-in-run-batch.py");

/** The command the run printed, run with the stand-in in place of vllm. */
function runEngine(root: string, stderr: string): void {
  const command = /^ {2}vllm run-batch -i (\S+) -o (\S+) --model (\S+)$/m.exec(stderr);
  assert.ok(command, stderr);
  execFileSync(PYTHON, [ENGINE, "-i", command[1], "-o", command[2], "--model", command[3]], { cwd: root });
}

test("the dir: flow: requests written, exit 76, the engine's results read on resume", async () => {
  const project = await batchProject();
  try {
    const live = await project.run(["--no-journal", "five.py"]);
    const chats = project.server.liveChats().length;

    const waiting = await project.run(["--batch=dir:batches", "five.py"]);
    assert.equal(waiting.exitCode, 76, waiting.stderr);
    assert.equal(waiting.stdout, "");
    assert.equal(
      waiting.stderr,
      "aiython: 5 model requests written to batches/requests-1-1.jsonl; waiting for batch results (exit 76). Process them, then go on:\n" +
        "  vllm run-batch -i batches/requests-1-1.jsonl -o batches/results-1-1.jsonl --model loop\n" +
        "  aiython resume 1\n",
    );
    const lines = fs
      .readFileSync(path.join(project.root, "batches", "requests-1-1.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 5);
    assert.deepEqual(Object.keys(lines[0]), ["custom_id", "method", "url", "body"]);

    const early = await project.run(["resume", "1"]);
    assert.equal(early.exitCode, 76, "resumed before the results exist: still waiting");
    assert.match(early.stderr, /the results of batches\/requests-1-1\.jsonl are not there yet/);

    runEngine(project.root, waiting.stderr);
    const resumed = await project.run(["resume", "1"]);
    assert.equal(resumed.exitCode, 0, resumed.stderr);
    assert.equal(resumed.stdout, live.stdout);
    assert.equal(project.server.batches.length, 0);
    assert.equal(project.server.liveChats().length, chats);
  } finally {
    await project.close();
  }
});

test("a tool loop in the dir: flow: each round is the next file", async () => {
  const project = await batchProject();
  try {
    const first = await project.run(["--batch=dir:batches", "two_rounds.py"]);
    assert.equal(first.exitCode, 76, first.stderr);
    runEngine(project.root, first.stderr);
    const second = await project.run(["resume"]);
    assert.equal(second.exitCode, 76, second.stderr);
    assert.match(second.stderr, /written to batches\/requests-2-1\.jsonl/);
    assert.match(second.stderr, /\n {2}aiython resume 2\n$/);
    runEngine(project.root, second.stderr);
    const done = await project.run(["resume"]);
    assert.equal(done.exitCode, 0, done.stderr);
    assert.equal(done.stdout, "hardware\n");
    assert.equal(project.server.requests.length, 0, "nothing reached the server");
  } finally {
    await project.close();
  }
});
