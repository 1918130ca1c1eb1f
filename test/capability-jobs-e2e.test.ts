// Long video jobs outlive a run (SPEC §10): a run killed while its video job is still being made
// leaves the job in the project's store; `aiython jobs list` shows it and `aiython jobs resume ID`
// finishes it — polling the same provider job, never submitting again — and prints the video's
// path under .aiython/artifacts.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { execa } from "execa";
import { capabilityConfig, FAKE_MP4, startCapabilityFakes } from "./support/capability-fakes.js";
import { finishWith, runPlan, startPlanModel } from "./support/plan-model.js";
import { aiython, cleanEnv, CLI } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const STEPS = [{ id: "m", capability: "video", params: { action: "generate", prompt: "a fox running", name: "fox" } }];

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 30_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("a killed run's video job is listed and finished by aiython jobs resume, without a second submission", async () => {
  const fakes = await startCapabilityFakes();
  const model = await startPlanModel({ "make a clip": [runPlan(STEPS), finishWith("m")] });
  try {
    const root = tempProject({ "aiython.toml": capabilityConfig(fakes.url, model.url, ["video"]), "clip.py": "clip = make a clip\nprint(clip)\n" });
    const env = cleanEnv({ OPENAI_API_KEY: "sk-jobs-test", AIYTHON_JOB_POLL_MS: "20" });
    fakes.holdVideos = true;
    const child = execa(CLI, ["clip.py"], { cwd: root, env, extendEnv: false, reject: false });
    await until(() => fakes.count(/^\/v1\/videos\/video_1$/) >= 2, "the run to poll its job");
    child.kill("SIGKILL");
    const killed = await child;
    assert.equal(killed.signal, "SIGKILL");

    const listed = await aiython(["jobs", "list", "--json"], { cwd: root, env });
    assert.equal(listed.exitCode, 0, listed.stderr);
    const [job, ...others] = JSON.parse(listed.stdout);
    assert.equal(others.length, 0);
    assert.equal(job.id, 1);
    assert.equal(job.capability, "video");
    assert.equal(job.status, "in_progress");
    assert.equal(job.origin, "clip.py:1");
    const table = await aiython(["jobs", "list"], { cwd: root, env });
    assert.match(table.stdout, /^\s+1\s+in_progress\s+video\s+clip\.py:1\s/m);

    fakes.holdVideos = false;
    const resumed = await aiython(["jobs", "resume", "1"], { cwd: root, env });
    assert.equal(resumed.stderr, "");
    assert.equal(resumed.exitCode, 0);
    const file = resumed.stdout.trimEnd();
    assert.match(file, /\/\.aiython\/artifacts\/video-fox-[0-9a-f]{8}\.mp4$/);
    assert.deepEqual(fs.readFileSync(file), FAKE_MP4);
    assert.equal(fakes.requests.filter((r) => r.method === "POST" && r.path === "/v1/videos").length, 1, "the job was submitted again");

    const after = JSON.parse((await aiython(["jobs", "list", "--json"], { cwd: root, env })).stdout);
    assert.equal(after[0].status, "completed");
    assert.equal(after[0].artifact, file);
    const missing = await aiython(["jobs", "resume", "7"], { cwd: root, env });
    assert.equal(missing.exitCode, 2);
    assert.match(missing.stderr, /^aiython: no job 7 in .*; see aiython jobs list\n$/);
  } finally {
    await Promise.all([fakes.close(), model.close()]);
  }
});

test("aiython jobs with a wrong command says how it is used", async () => {
  const root = tempProject({});
  const ran = await aiython(["jobs", "stop"], { cwd: root });
  assert.equal(ran.exitCode, 2);
  assert.equal(ran.stderr, "aiython: unknown jobs command 'stop': aiython jobs list [--json] | aiython jobs resume ID\n");
  const empty = await aiython(["jobs", "list"], { cwd: root });
  assert.equal(empty.exitCode, 0);
  assert.match(empty.stdout, /^no jobs in this project/);
});
