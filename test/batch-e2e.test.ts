// Batch offload end to end (SPEC §14) through the built CLI against the loopback Batch API:
// 200 blocks from a thread pool in one batch with the live run's output; a tool loop's second
// round in a second batch; stats count `batched` at the batch price; the progress line on a
// terminal, erased before the program writes again.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { batchProject, BATCH_KEY } from "./support/batch-project.js";
import { CLI, cleanEnv, ROOT } from "./support/run-cli.js";

const hasScript = fs.existsSync("/usr/bin/script");

test("200 blocks reached from a thread pool: one batch, no live chat request, the live run's output", async () => {
  const project = await batchProject();
  try {
    const live = await project.run(["--no-journal", "pool.py"]);
    assert.equal(live.exitCode, 0, live.stderr);
    assert.equal(project.server.liveChats().length, 200);
    assert.equal(live.stdout.trimEnd().split("\n").length, 200);

    const before = project.server.liveChats().length;
    const batched = await project.run(["--batch", "--stats=json", "pool.py"]);
    assert.equal(batched.exitCode, 0, batched.stderr);
    assert.equal(batched.stdout, live.stdout);
    assert.equal(project.server.liveChats().length - before, 0, "no live chat request");
    assert.equal(project.server.batches.length, 1);
    assert.equal(project.server.batches[0].lines.length, 200);
    const stats = JSON.parse(/aiython stats: (.*)/.exec(batched.stderr)?.[1] ?? "null");
    assert.equal(stats.run.batched, 200);
    assert.equal(stats.run.model_calls, 200);
    // 200 × (1000 input + 100 output tokens) at half of $2 / $8 per million.
    assert.equal(stats.run.cost_usd, Number(((200 * (1000 * 1 + 100 * 4)) / 1e6).toFixed(6)));
  } finally {
    await project.close();
  }
});

test("a tool loop that needs two rounds completes in two batches", async () => {
  const project = await batchProject();
  try {
    const ran = await project.run(["--batch", "two_rounds.py"]);
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, "hardware\n");
    assert.equal(project.server.batches.length, 2);
    assert.deepEqual(
      project.server.batches.map((b) => b.lines.length),
      [1, 1],
    );
    assert.equal(project.server.liveChats().length, 0);
  } finally {
    await project.close();
  }
});

test("on a terminal: a live progress line while the batch waits, erased before the program writes", { skip: !hasScript && "needs script(1)" }, async () => {
  const project = await batchProject({ pollsPerStatus: 8 }, "window = 0.2\npoll = 0.25");
  try {
    const env = cleanEnv({ BATCH_KEY, TERM: "xterm" });
    const result = await execa("script", ["-qec", `${CLI} --batch five.py`, "/dev/null"], { cwd: project.root, env, extendEnv: false, reject: false });
    const screen = String(result.stdout);
    assert.equal(result.exitCode, 0, screen);
    assert.match(screen, /\r\x1b\[2Kaiython: batch 1 in_progress: 5 submitted, 0 completed, 0 failed, \d+ s/);
    const first = screen.indexOf("0: label-");
    assert.ok(first > 0, screen);
    assert.ok(screen.slice(0, first).endsWith("\r\x1b[2K"), "the line is erased just before the program's first output");
    assert.doesNotMatch(screen.slice(first), /aiython: batch/, "nothing drawn once the answers are back");
  } finally {
    await project.close();
  }
});

test("examples/batch_classify.py prints what its header promises, from one batch at the batch price", async () => {
  const { standInReply } = await import("../examples/demo/stand-in-model.js");
  const project = await batchProject({
    responder: async (request) => ({ ...(await standInReply(request.body)), usage: { prompt_tokens: 1200, completion_tokens: 30, total_tokens: 1230 } }),
  });
  try {
    const example = path.join(ROOT, "examples", "batch_classify.py");
    const promised = /Expected output:\n# {3}(.*)\n/.exec(fs.readFileSync(example, "utf8"))?.[1];
    fs.copyFileSync(example, path.join(project.root, "batch_classify.py"));
    const ran = await project.run(["--batch", "--stats", "batch_classify.py"]);
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, `${promised}\n`);
    assert.equal(project.server.batches.length, 1);
    assert.equal(project.server.liveChats().length, 0);
    // 200 × (1200 input + 30 output tokens) at half of the $2 / $8 per million the project's route costs.
    assert.match(ran.stderr, /aiython stats: 200 AI invocations, 200 model calls \(200 batched\), .* \$0\.2640, /);
  } finally {
    await project.close();
  }
});

test("blocks reached in worker processes join the run's one batch", async () => {
  const project = await batchProject();
  try {
    const live = await project.run(["--no-journal", "processes.py"]);
    assert.equal(live.exitCode, 0, live.stderr);
    const chats = project.server.liveChats().length;
    const ran = await project.run(["--batch", "processes.py"]);
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, live.stdout);
    assert.deepEqual(
      project.server.batches.map((b) => b.lines.length),
      [5],
    );
    assert.equal(project.server.liveChats().length, chats);
  } finally {
    await project.close();
  }
});
