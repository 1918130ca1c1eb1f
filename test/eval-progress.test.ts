// `aiython eval`'s progress on stderr (src/eval/progress.ts): on a terminal a live line redrawn as
// runs end and erased before the report; off a terminal a line a minute. The class with a fake
// clock and writer, then the built CLI in a real terminal (tmux): the line counts the runs as they
// end and is gone from the screen once the report is printed.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { EvalProgress } from "../src/eval/progress.js";
import { CLI, cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";
import { tmuxAvailable, tmuxPane } from "./support/tmux.js";

function recorder(live: boolean) {
  const written: string[] = [];
  let now = 1_000_000;
  const progress = new EvalProgress(
    (text) => void written.push(text),
    live,
    () => now,
  );
  return { progress, written, advance: (ms: number) => void (now += ms) };
}

test("on a terminal: drawn at the start and at each run's end, in place, and erased at the end", () => {
  const { progress, written, advance } = recorder(true);
  progress.start(4);
  advance(2_400);
  progress.finished(true);
  progress.finished(false);
  progress.end();
  assert.deepEqual(written, [
    "\r\x1b[Keval: 0/4 runs, 0 passed, 0 not passed, 0 s",
    "\r\x1b[Keval: 1/4 runs, 1 passed, 0 not passed, 2 s",
    "\r\x1b[Keval: 2/4 runs, 1 passed, 1 not passed, 2 s",
    "\r\x1b[K",
  ]);
});

test("off a terminal: nothing at a run's end or at the end, whole lines on the minute", () => {
  const { progress, written, advance } = recorder(false);
  progress.start(2);
  progress.finished(true);
  advance(61_000);
  assert.equal(progress.line(), "eval: 1/2 runs, 1 passed, 0 not passed, 61 s");
  progress.end();
  assert.deepEqual(written, []);
});

test("the built CLI in a terminal shows the runs counted while they go and leaves only the report", { skip: !tmuxAvailable() && "needs tmux" }, async () => {
  const dir = tempProject({ "aiython.toml": "version = 3\nmax_concurrency = 1\n", "slow.py": "import time\ntime.sleep(1.5)\nprint('done')\n" });
  const env = cleanEnv({ TERM: "xterm" });
  const pane = await tmuxPane(dir, `'${CLI}' eval slow.py --repeat 3`, env);
  try {
    await pane.waitFor(/eval: 1\/3 runs, 1 passed, 0 not passed, \d+ s/, 60_000);
    assert.equal(await pane.status(60_000), 0);
    const screen = await pane.screen();
    assert.match(screen, /aiython eval slow\.py: 3 runs of each program/);
    assert.match(screen, /\neval: 1 program, 3 runs, 3 passed;/);
    assert.doesNotMatch(screen, /eval: \d\/3 runs/, "the live line is erased before the report");
  } finally {
    await pane.close();
    fs.rmSync(path.join(dir, ".tmux-socket"), { force: true });
  }
});
