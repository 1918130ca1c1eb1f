// `aiython resume` through the built CLI (SPEC §11.2): a run whose whole process group is killed
// with SIGKILL between its second and third block is resumed with one request sent, the third;
// a changed source is refused with the file named, and --force goes on; a tool call with effects
// that the killed run started and never saw end is named as uncertain and not run again.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { finishCall, toolCall, type Responder } from "./support/loopback-model.js";
import { blockOf, inTurn, journalProject, type JournalProject } from "./support/journal-e2e.js";
import { CLI, cleanEnv } from "./support/run-cli.js";

/** Starts the CLI in its own process group, waits for `marker` to appear in the project, then kills the whole group with SIGKILL. */
async function killedAt(project: JournalProject, args: string[], marker: string, env: Record<string, string> = {}): Promise<void> {
  const child = spawn(CLI, args, {
    cwd: project.root,
    detached: true,
    stdio: "ignore",
    env: cleanEnv({ AIYTHON_MODEL: "loop", OPENAI_BASE_URL: project.model.url, OPENAI_API_KEY: "sk-journal-e2e-key", ...env }),
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const deadline = Date.now() + 30_000;
  while (!fs.existsSync(path.join(project.root, marker))) {
    if (Date.now() > deadline) throw new Error(`${marker} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await new Promise((resolve) => setTimeout(resolve, 300)); // the journal writes its rows 50 ms after an answer
  process.kill(-(child.pid as number), "SIGKILL");
  await exited;
}

test("a run killed with SIGKILL resumes with only the request it never got an answer for", async () => {
  const project = await journalProject(inTurn(["red", "fox", "Lima", "?"]));
  try {
    await killedAt(project, ["hang.py"], "hanging", { HANG: "1" });
    assert.deepEqual(project.sent().map(blockOf), ["hang.py:6", "hang.py:8"]);
    const listed = JSON.parse((await project.run(["runs", "list", "--json"])).stdout);
    assert.deepEqual([listed[0].ended_how, listed[0].endedAt], [null, null], "the killed run never recorded its end");

    const resumed = await project.run(["resume"]);
    assert.equal(resumed.exitCode, 0, resumed.stderr);
    assert.equal(resumed.stdout, "red\nfox\nLima\n");
    assert.equal(resumed.stderr, "aiython: resuming run 1: aiython hang.py\n");
    assert.deepEqual(project.sent().map(blockOf), ["hang.py:6", "hang.py:8", "hang.py:13"], "only the third block was sent");
    const run = JSON.parse((await project.run(["runs", "show", "2", "--json"])).stdout).run;
    assert.deepEqual([run.mode, run.resumed_from, run.source_run, run.replayed, run.modelCalls, run.ended_how], ["resume", 1, 1, 2, 1, "exit"]);

    const nothing = await project.run(["resume"]);
    assert.equal(nothing.exitCode, 2);
    assert.match(nothing.stderr, /^aiython: there is nothing to resume: every recorded run ended normally or was resumed since/);
  } finally {
    await project.close();
  }
});

test("resume refuses a source that changed since the run, naming the file, and --force goes on", async () => {
  const project = await journalProject(inTurn(["red", "fox", "Lima"]));
  try {
    await killedAt(project, ["hang.py"], "hanging", { HANG: "1" });
    fs.appendFileSync(path.join(project.root, "hang.py"), "# appended after the run\n");
    const refused = await project.run(["resume", "1"]);
    assert.equal(refused.exitCode, 2);
    assert.equal(refused.stdout, "");
    assert.equal(
      refused.stderr,
      "aiython: run 1 changed since it ran: hang.py (changed); resume anyway with aiython resume 1 --force (recorded answers are used where the requests still match), or run it anew\n",
    );
    assert.equal(project.sent().length, 2, "a refused resume runs nothing");
    const forced = await project.run(["resume", "1", "--force"]);
    assert.equal(forced.exitCode, 0, forced.stderr);
    assert.equal(forced.stdout, "red\nfox\nLima\n");
    assert.equal(forced.stderr, "aiython: resuming run 1: aiython hang.py (changed: hang.py (changed))\n");
    assert.equal(project.sent().length, 3, "an appended comment leaves the recorded requests as they were");
  } finally {
    await project.close();
  }
});

test("a tool call with effects that the killed run started and never saw end is uncertain: named, not run again, and the model is told", async () => {
  const code = 'open(log, "a").write("started\\n")\nopen("running", "w").close()\nimport time\ntime.sleep(60)';
  const responder: Responder = (request, index) => {
    if (index === 0) return { toolCalls: [toolCall("execute", { code }, "call_effect")] };
    const last = request.body.messages.at(-1);
    return last.role === "tool" && JSON.parse(last.content).error === "UncertainEffect" ? finishCall({ kind: "literal", value: true }) : { status: 500 };
  };
  const project = await journalProject(responder);
  try {
    await killedAt(project, ["effect.py"], "running");
    const resumed = await project.run(["resume"]);
    assert.equal(resumed.exitCode, 0, resumed.stderr);
    assert.equal(resumed.stdout, "done: True\n");
    assert.equal(
      resumed.stderr,
      "aiython: resuming run 1: aiython effect.py\n" +
        "aiython: uncertain: execute at effect.py:4 (call call_effect) was started by run 1 and never seen to end; it is not run again\n",
    );
    assert.equal(fs.readFileSync(path.join(project.root, "effects.log"), "utf8"), "started\n", "the effect ran once");
    assert.equal(project.sent().length, 2);
    const told = JSON.parse(project.sent()[1].body.messages.at(-1).content);
    assert.match(told.message, /^this execute call was started by run 1, which ended before it did/);
    assert.match((await project.run(["runs", "show", "1"])).stdout, /\n {2}uncertain: execute at effect\.py:4 \(call call_effect\), started and never seen to end\n$/);
    assert.match(
      (await project.run(["runs", "show", "2"])).stdout,
      /\n {2}uncertain: execute at effect\.py:4 \(call call_effect\), started by run 1 and never seen to end: not run again\n$/,
    );
  } finally {
    await project.close();
  }
});
