// Batch offload when lines fail (SPEC §14), through the built CLI against the loopback Batch API:
// failed, malformed and expired lines go into a later batch (or live with --batch=fallback-live),
// a batch over max_requests is split, and a server without the Batch API is one clear message.

import assert from "node:assert/strict";
import { test } from "node:test";
import { batchProject, type BatchProject } from "./support/batch-project.js";

async function liveOutput(project: BatchProject): Promise<string> {
  const live = await project.run(["--no-journal", "five.py"]);
  assert.equal(live.exitCode, 0, live.stderr);
  return live.stdout;
}

test("an expired batch, a failed line and a malformed line are sent again in later batches", async () => {
  const project = await batchProject({ expireBatch: (n) => n === 1, failLine: (_line, n) => n === 0, malformedLine: (_line, n) => n === 1 });
  try {
    const expected = await liveOutput(project);
    const chats = project.server.liveChats().length;
    const ran = await project.run(["--batch", "--stats=json", "five.py"]);
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, expected);
    assert.equal(project.server.liveChats().length, chats, "nothing went live");
    assert.deepEqual(
      project.server.batches.map((b) => [b.status, b.lines.length]),
      [
        ["expired", 5],
        ["completed", 5],
        ["completed", 2],
      ],
    );
    const stats = JSON.parse(/aiython stats: (.*)/.exec(ran.stderr)?.[1] ?? "null");
    assert.equal(stats.run.batched, 12, "each line sent counts");
  } finally {
    await project.close();
  }
});

test("--batch=fallback-live sends a failed line live instead of in another batch", async () => {
  const project = await batchProject({ failLine: (_line, n) => n === 2 });
  try {
    const expected = await liveOutput(project);
    const chats = project.server.liveChats().length;
    const ran = await project.run(["--batch=fallback-live", "five.py"]);
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, expected);
    assert.equal(project.server.batches.length, 1);
    assert.equal(project.server.liveChats().length - chats, 1);
  } finally {
    await project.close();
  }
});

test("a batch over max_requests is split", async () => {
  const project = await batchProject({}, "window = 1\npoll = 0.05\nmax_requests = 2");
  try {
    const expected = await liveOutput(project);
    const ran = await project.run(["--batch", "five.py"]);
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, expected);
    assert.deepEqual(
      project.server.batches.map((b) => b.lines.length),
      [2, 2, 1],
    );
  } finally {
    await project.close();
  }
});

test("a server without the Batch API ends the run with one message naming the fixes", async () => {
  const project = await batchProject({ noBatchApi: true });
  try {
    const ran = await project.run(["--batch", "five.py"]);
    assert.equal(ran.exitCode, 78);
    assert.equal(ran.stdout, "");
    assert.match(
      ran.stderr,
      /^aiython: --batch: the server at http:\/\/127\.0\.0\.1:\d+\/v1 has no Batch API \(POST \/files answered 404\)\. .*--batch=dir:PATH.*a proxy that speaks the OpenAI Batch API.*\n$/,
    );
    assert.equal(project.server.liveChats().length, 0);
  } finally {
    await project.close();
  }
});

test("--batch with a value it does not take is a usage error naming the forms", async () => {
  const project = await batchProject();
  try {
    const ran = await project.run(["--batch=later", "five.py"]);
    assert.equal(ran.exitCode, 2);
    assert.equal(ran.stderr, "aiython: --batch takes no value, =fallback-live or =dir:PATH (a folder for the requests files), not 'later'\n");
    assert.equal(project.server.requests.length, 0);
  } finally {
    await project.close();
  }
});
