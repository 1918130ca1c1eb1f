// Durable waiting (SPEC §14): a batch and the requests it carries are journaled before it is
// submitted, so a run killed while it waits is continued by `aiython resume`, which re-attaches to
// the batch instead of submitting the same requests again — also a batch whose POST /batches was
// answered by no one, or never reached the provider. Through the built CLI.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { batchProject, BATCH_KEY, type BatchProject } from "./support/batch-project.js";
import { CLI, cleanEnv } from "./support/run-cli.js";

/** Starts the CLI in its own process group, waits until `ready()` (or fails naming `what` after 30 s), then kills the whole group with SIGKILL. */
async function killedWhen(project: BatchProject, args: string[], ready: () => boolean, what: string): Promise<void> {
  const child = spawn(CLI, args, { cwd: project.root, detached: true, stdio: "ignore", env: cleanEnv({ BATCH_KEY }) });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const deadline = Date.now() + 30_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  process.kill(-(child.pid as number), "SIGKILL");
  await exited;
}

/** Killed once the batch has been polled in progress. */
const killedWhileWaiting = (project: BatchProject, args: string[]) =>
  killedWhen(project, args, () => project.server.batches.length > 0 && project.server.batches[0].polls >= 3, "the batch was never polled");

/** Killed once the server has received its POST /batches (never answered). */
const killedWhileCreating = (project: BatchProject, args: string[]) =>
  killedWhen(project, args, () => project.server.requests.some((r) => r.method === "POST" && r.path === "/v1/batches"), "POST /batches never came");

/** A batch project and the same program run live first: `body` gets the project, that run's stdout and its live chats. */
async function afterLiveRun(body: (project: BatchProject, stdout: string, chats: number) => Promise<void>): Promise<void> {
  const project = await batchProject();
  try {
    const live = await project.run(["--no-journal", "five.py"]);
    assert.equal(live.exitCode, 0, live.stderr);
    await body(project, live.stdout, project.server.liveChats().length);
  } finally {
    await project.close();
  }
}

/** `aiython resume` ends as the live run did, and sent nothing live. */
async function resumedAsLive(project: BatchProject, stdout: string, chats: number): Promise<void> {
  const resumed = await project.run(["resume"]);
  assert.equal(resumed.exitCode, 0, resumed.stderr);
  assert.equal(resumed.stdout, stdout);
  assert.equal(project.server.liveChats().length, chats, "nothing went live");
}

test("a run killed while its batch waits resumes without a second submission", () =>
  afterLiveRun(async (project, stdout, chats) => {
    project.server.hold(true);
    await killedWhileWaiting(project, ["--batch", "five.py"]);
    assert.equal(project.server.batches.length, 1);
    assert.equal(project.server.batches[0].status, "in_progress");
    const [journaled] = project.query<{ provider_id: string; status: string; n: number }>(
      "SELECT b.provider_id, b.status, COUNT(r.custom_id) AS n FROM batches b JOIN batch_requests r ON r.batch_id = b.id GROUP BY b.id",
    );
    assert.deepEqual({ ...journaled }, { provider_id: project.server.batches[0].id, status: "submitted", n: 5 });

    project.server.hold(false);
    await resumedAsLive(project, stdout, chats);
    assert.equal(project.server.batches.length, 1, "the resumed run re-attached to the batch; it submitted nothing");
    assert.equal(posted(project, "/v1/files"), 1, "one upload in all");
    const runs = project.query<{ id: number; resumed_from: number | null; exit_status: number | null }>("SELECT id, resumed_from, exit_status FROM runs ORDER BY id");
    assert.deepEqual(
      runs.map((r) => ({ ...r })),
      [
        { id: 1, resumed_from: null, exit_status: null },
        { id: 2, resumed_from: 1, exit_status: 0 },
      ],
    );
    assert.equal(project.query("SELECT 1 FROM exchanges WHERE run_id = 2").length, 5, "the answers are the resumed run's exchanges");
    assertCompleted(project);
  }));

test("a run killed before the provider answered POST /batches resumes on the batch the provider created", () =>
  afterLiveRun(async (project, stdout, chats) => {
    project.server.unanswered(true);
    await killedWhileCreating(project, ["--batch", "five.py"]);
    const journaled = submittingRow(project);
    assert.deepEqual(project.server.batches[0].metadata, { aiython_run: "1", aiython_batch: "1", aiython_token: journaled.token });
    assert.equal(project.server.batches[0].input_file_id, journaled.file_id);

    project.server.unanswered(false);
    await resumedAsLive(project, stdout, chats);
    assert.equal(project.server.batches.length, 1, "the resumed run found the provider's batch by its token; it created none");
    assert.equal(posted(project, "/v1/files"), 1, "one upload in all");
    assert.equal(listings(project), 1, "one listing found it");
    assertCompleted(project);
  }));

test("a run killed before its POST /batches reached the provider resumes by creating the batch from the uploaded file", () =>
  afterLiveRun(async (project, stdout, chats) => {
    project.server.dropCreate(true);
    await killedWhileCreating(project, ["--batch", "five.py"]);
    assert.equal(project.server.batches.length, 0, "the provider never created the batch");
    const journaled = submittingRow(project);
    assert.match(journaled.file_id ?? "", /^file-loop-/, "the upload was journaled before POST /batches");

    project.server.dropCreate(false);
    await resumedAsLive(project, stdout, chats);
    assert.equal(project.server.batches.length, 1, "exactly one batch on the server");
    assert.equal(posted(project, "/v1/files"), 1, "the uploaded file was reused: one upload in all");
    assert.equal(posted(project, "/v1/batches"), 2, "the lost POST /batches and the resumed run's one");
    assert.equal(listings(project), 1, "it looked for the batch first");
    assert.equal(project.server.batches[0].input_file_id, journaled.file_id);
    assert.deepEqual(project.server.batches[0].metadata, { aiython_run: "1", aiython_batch: "1", aiython_token: journaled.token });
    assert.equal(project.server.batches[0].lines.length, 5);
    assertCompleted(project);
  }));

const posted = (project: BatchProject, path: string) => project.server.requests.filter((r) => r.path === path && r.method === "POST").length;
const listings = (project: BatchProject) => project.server.requests.filter((r) => r.path === "/v1/batches" && r.method === "GET").length;

/** The journal's one batch, still `submitting` with no provider id: the run was killed before an answer to POST /batches. */
function submittingRow(project: BatchProject) {
  const [journaled] = project.query<{ provider_id: string | null; status: string; token: string; file_id: string | null }>(
    "SELECT provider_id, status, token, file_id FROM batches",
  );
  assert.deepEqual({ provider_id: journaled.provider_id, status: journaled.status }, { provider_id: null, status: "submitting" });
  return journaled;
}

/** The journal's one batch ended completed, under the provider's id. */
function assertCompleted(project: BatchProject): void {
  assert.deepEqual(
    project.query<{ provider_id: string; status: string }>("SELECT provider_id, status FROM batches").map((b) => ({ ...b })),
    [{ provider_id: project.server.batches[0].id, status: "completed" }],
  );
}
