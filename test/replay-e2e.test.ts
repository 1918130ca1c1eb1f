// --replay end to end (SPEC §11): examples/tickets.py recorded once against the stand-in model,
// then replayed through the built CLI with no model server reachable — same output, no request —
// and a replay of a changed program fails at the first block with an AIError naming it.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { echoFinishResponder, startLoopbackModel } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";
import { filesUnder } from "./support/journal-helpers.js";
import { chatRequests, FAKE_KEY, modelEnv, runIn, standIn, TICKETS_STDOUT, ticketsProject } from "./support/observe-e2e.js";

test("a recorded run replays with identical output and no model request, even with the server gone", async () => {
  const root = ticketsProject();
  const model = await standIn();
  const recorded = await runIn(root, ["tickets.py"], modelEnv(model.url));
  await model.close();
  assert.equal(recorded.exitCode, 0, recorded.stderr);
  assert.equal(recorded.stdout, TICKETS_STDOUT);
  assert.equal(chatRequests(model), 5);

  // A listening server that must not be asked, then the closed port of the recording server.
  const witness = await startLoopbackModel({ responder: () => ({ status: 500 }) });
  try {
    const replayed = await runIn(root, ["--replay", "tickets.py"], modelEnv(witness.url));
    assert.equal(replayed.exitCode, 0, replayed.stderr);
    assert.equal(replayed.stdout, recorded.stdout);
    assert.equal(replayed.stderr, "");
    assert.equal(witness.requests.length, 0, "--replay contacted the model server");
  } finally {
    await witness.close();
  }
  const offline = await runIn(root, ["--replay", "tickets.py"], modelEnv(model.url));
  assert.equal(offline.exitCode, 0, offline.stderr);
  assert.equal(offline.stdout, recorded.stdout);

  for (const file of filesUnder(path.join(root, ".aiython"))) {
    assert.equal(fs.readFileSync(file).includes(FAKE_KEY), false, `${file} holds the API key`);
  }
});

test("replaying a changed program fails at the first unrecorded block with an AIError naming it", async () => {
  const root = ticketsProject();
  const model = await standIn();
  const recorded = await runIn(root, ["tickets.py"], modelEnv(model.url));
  await model.close();
  assert.equal(recorded.exitCode, 0, recorded.stderr);

  const file = path.join(root, "tickets.py");
  fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"Refund please"', '"Refund please", "My invoice is wrong"'));
  const replayed = await runIn(root, ["--replay", "tickets.py"], modelEnv(model.url));
  assert.equal(replayed.exitCode, 1);
  assert.equal(replayed.stdout, "");
  assert.match(replayed.stderr, /File ".*tickets\.py", line 14/);
  assert.match(
    replayed.stderr,
    /AIError: --replay: no recorded answer for tickets\.py:14; the nearest recorded request for this block \(run 1, \d{4}-\d\d-\d\d \d\d:\d\d UTC\) differs in\n {2}the block: the code around it\n {2}other values in the frame: tickets\nrun once without --replay to record it, or with --replay=fill to record only what is missing\n$/,
  );
});

test("--replay with --no-journal is a usage error", async () => {
  const root = ticketsProject();
  const ran = await runIn(root, ["--replay", "--no-journal", "tickets.py"], modelEnv("http://127.0.0.1:9/v1"));
  assert.equal(ran.exitCode, 2);
  assert.equal(ran.stderr, "aiython: --replay answers from the journal; drop --no-journal\n");
});

test("--replay=fill on a program with one new block sends exactly one request, and records it for the next replay", async () => {
  // Blocks inside functions: each request shows its function whole, so a new function leaves the
  // recorded requests unchanged.
  const functions = "def classify(ticket):\n    kind = classify this ticket as bug or billing\n    return kind\n\n";
  const calls = 'print(classify("I was charged twice"))\nprint(classify("The app crashes"))\n';
  const added = "def shorten(text):\n    short = make this text shorter\n    return short\n\n";
  const root = tempProject({ "main.py": functions + calls });
  const model = await startLoopbackModel({ responder: echoFinishResponder({ literal: "ok" }) });
  const env = modelEnv(model.url, { AIYTHON_MODEL: "loop" });
  try {
    const recorded = await runIn(root, ["main.py"], env);
    assert.equal(recorded.exitCode, 0, recorded.stderr);
    assert.equal(chatRequests(model), 2);
    fs.writeFileSync(path.join(root, "main.py"), `${functions + added + calls}print(shorten("a long text"))\n`);
    const filled = await runIn(root, ["--replay=fill", "--stats=json", "main.py"], env);
    assert.equal(filled.exitCode, 0, filled.stderr);
    assert.equal(filled.stdout, "ok\nok\nok\n");
    assert.equal(chatRequests(model), 3, "only the new block is sent");
    const stats = JSON.parse(filled.stderr.trimEnd().slice("aiython stats: ".length));
    assert.deepEqual([stats.run.model_calls, stats.run.replayed], [1, 2]);
  } finally {
    await model.close();
  }
  const replayed = await runIn(root, ["--replay", "main.py"], env);
  assert.equal(replayed.exitCode, 0, replayed.stderr);
  assert.equal(replayed.stdout, "ok\nok\nok\n");
});

test("--replay takes a run id and fill, nothing else; a run id the journal lacks is a usage error", async () => {
  const root = ticketsProject();
  const env = modelEnv("http://127.0.0.1:9/v1");
  for (const value of ["all", "3,all", "0", "fill,3"]) {
    const ran = await runIn(root, [`--replay=${value}`, "tickets.py"], env);
    assert.deepEqual(
      [ran.exitCode, ran.stderr],
      [2, `aiython: --replay takes no value, =fill, =RUN_ID or =RUN_ID,fill (run ids as aiython runs list shows them), not '${value}'\n`],
    );
  }
  const missing = await runIn(root, ["--replay=7,fill", "tickets.py"], env);
  assert.equal(missing.exitCode, 2);
  assert.match(missing.stderr, /^aiython: --replay=7: there is no run 7 in .*\.aiython\/aiython\.sqlite; see aiython runs list\n$/);
  assert.equal(missing.stdout, "");
});
