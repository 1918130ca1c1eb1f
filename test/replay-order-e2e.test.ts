// Replay of repeated questions through the built CLI (SPEC §11.1): a program that asks the same
// question twice, from four threads or from four worker processes, against a model that answers
// differently each time, is played back with each recorded answer given once — in order when
// the questions come one after another — and the replay run is in `runs list` with what it
// replayed. With the previous journal (one answer per request hash) the replay printed
// "banana banana".

import { test } from "node:test";
import assert from "node:assert/strict";
import { inTurn, journalProject } from "./support/journal-e2e.js";

const FRUIT = ["apple", "banana", "cherry", "damson"];

test("a question asked twice replays its two answers in order, and the replay run is recorded with them", async () => {
  const project = await journalProject(inTurn(FRUIT));
  try {
    const recorded = await project.run(["fruit.py"]);
    assert.deepEqual([recorded.exitCode, recorded.stdout, recorded.stderr], [0, "apple banana\n", ""]);
    const replayed = await project.run(["--replay", "fruit.py"]);
    assert.deepEqual([replayed.exitCode, replayed.stdout, replayed.stderr], [0, "apple banana\n", ""]);
    assert.equal(project.sent().length, 2, "the replay sent nothing");
    const listed = JSON.parse((await project.run(["runs", "list", "--json"])).stdout);
    assert.deepEqual(
      listed.map((run: { id: number; mode: string; source_run: number | null; invocations: number; replayed: number; modelCalls: number }) => [
        run.id,
        run.mode,
        run.source_run,
        run.invocations,
        run.replayed,
        run.modelCalls,
      ]),
      [
        [2, "replay", 1, 2, 2, 0],
        [1, "record", null, 2, 0, 2],
      ],
    );
    assert.match((await project.run(["runs", "list"])).stdout, /\n {2}2\s+\S+ \S+\s+fruit\.py \(replay of 1\)\s+0\s+2\s+0\s+2\s/);
  } finally {
    await project.close();
  }
});

for (const [fixture, what] of [
  ["fruit_threads.py", "four threads"],
  ["fruit_pool.py", "four worker processes"],
]) {
  test(`the same question from ${what} at once replays each recorded answer once`, async () => {
    const project = await journalProject(inTurn(FRUIT));
    try {
      const recorded = await project.run([fixture]);
      assert.equal(recorded.exitCode, 0, recorded.stderr);
      assert.deepEqual(recorded.stdout.trim().split(" ").sort(), FRUIT);
      for (let replay = 0; replay < 2; replay++) {
        const replayed = await project.run(["--replay", fixture]);
        assert.equal(replayed.exitCode, 0, replayed.stderr);
        assert.deepEqual(replayed.stdout.trim().split(" ").sort(), FRUIT, "each recorded answer once, none twice");
      }
      assert.equal(project.sent().length, 4);
    } finally {
      await project.close();
    }
  });
}
