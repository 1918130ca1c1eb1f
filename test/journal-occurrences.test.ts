// The run-faithful journal (SPEC §11, §11.1) through the journal session: a request asked twice is
// two rows, answered in order by a replay (the n-th occurrence gets the n-th recorded answer of
// the source run, then of the most recent other run that has it); requests made at once are
// counted in the order they were made; nothing a run recorded is changed by a later run; and a
// replay run is recorded itself, as rows naming the answers it replayed.

import { test } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { journalPath, openJournal } from "../src/journal/index.js";
import { JournalSession } from "../src/observe/journal-session.js";
import type { ReplayAnswer } from "../src/observe/replaying-model.js";
import { END, counters, runStart, tempProject } from "./support/journal-helpers.js";

const ROUTE = { id: "openai/m", model: "m" };

function session(root: string, replay: { run: number | null } | null): JournalSession {
  return new JournalSession({
    projectRoot: root,
    cwd: root,
    record: true,
    replay,
    run: runStart({ mode: replay ? "replay" : "record", sourceRun: replay?.run ?? null }),
    command: null,
    redact: (text) => text,
    warn: (line) => assert.fail(`unexpected warning: ${line}`),
  });
}

/** A recorded run asking `key` once per answer, in order; its id. */
async function recordRun(root: string, key: string, answers: string[]): Promise<number> {
  const run = session(root, null);
  for (const answer of answers) {
    const seq = run.nextSeq();
    run.record({ seq, at: new Date(), origin: { invocation: `inv-${seq}`, round: 1 }, counted: null, stored: () => stored(key, answer) });
  }
  await run.finish(END);
  return lastRun(root);
}

function stored(key: string, answer: string) {
  return { key, block: "tickets.py:9", route: ROUTE.id, model: ROUTE.model, requestJson: `{"ask":"${key}"}`, responseJson: `{"answer":"${answer}"}` };
}

function lastRun(root: string): number {
  const db = new Database(journalPath(root), { readonly: true });
  try {
    return Number(db.prepare("SELECT MAX(id) FROM runs").pluck().get());
  } finally {
    db.close();
  }
}

/** What a replay session answers to `key`, `times` times, each answer replayed into its run. */
async function replay(root: string, source: number | null, key: string, times: number): Promise<(string | null)[]> {
  const run = session(root, { run: source });
  const answers: (string | null)[] = [];
  for (let i = 0; i < times; i++) answers.push(used(run, key, await run.answer(key)));
  await run.finish(END);
  return answers;
}

function used(run: JournalSession, key: string, answer: ReplayAnswer): string | null {
  if (answer.kind !== "found") return null;
  run.replayed({ key, occurrence: answer.occurrence, found: answer.found, block: "tickets.py:9", route: ROUTE, origin: null });
  return (JSON.parse(answer.found.responseJson) as { answer: string }).answer;
}

test("the n-th time a run asks a request it gets the n-th recorded answer, from the source run first, then the most recent other run", async () => {
  const root = tempProject();
  const first = await recordRun(root, "fruit", ["apple", "banana"]);
  const second = await recordRun(root, "fruit", ["cherry"]);
  assert.deepEqual(await replay(root, first, "fruit", 3), ["apple", "banana", null], "a third occurrence no run recorded is a miss");
  assert.deepEqual(await replay(root, second, "fruit", 2), ["cherry", "banana"], "past the source's occurrences: the most recent other run that has one");
  // Without a run id: the latest run of the same command line that holds answers (the replay just above).
  assert.deepEqual(await replay(root, null, "fruit", 2), ["cherry", "banana"]);

  const journal = await openJournal({ projectRoot: root, create: false });
  try {
    const answers = (run: number) => [1, 2, 3].map((occurrence) => journal?.exchanges.find("fruit", occurrence, run, -1)?.runId === run);
    assert.deepEqual(answers(first), [true, true, false], "the first run's two answers are still its own");
  } finally {
    journal?.close();
  }
  const db = new Database(journalPath(root), { readonly: true });
  try {
    const rows = db.prepare("SELECT run_id, seq, occurrence, response_json, same_as FROM exchanges WHERE run_id = ? ORDER BY seq").all(first);
    assert.deepEqual(rows, [
      { run_id: first, seq: 1, occurrence: 1, response_json: '{"answer":"apple"}', same_as: null },
      { run_id: first, seq: 2, occurrence: 2, response_json: '{"answer":"banana"}', same_as: null },
    ]);
  } finally {
    db.close();
  }
});

test("requests made at once are counted in the order they were made, not the order the journal answers them", async () => {
  const root = tempProject();
  const recorded = await recordRun(root, "fruit", ["apple", "banana", "cherry"]);
  const run = session(root, { run: recorded });
  const answers = await Promise.all([run.answer("fruit"), run.answer("fruit"), run.answer("fruit")]);
  assert.deepEqual(
    answers.map((answer) => answer.occurrence),
    [1, 2, 3],
  );
  assert.deepEqual(
    answers.map((answer) => used(run, "fruit", answer)),
    ["apple", "banana", "cherry"],
  );
  await run.finish(END);
});

test("a replay run is a run of the journal: its mode, source, invocations and the rows naming what it replayed", async () => {
  const root = tempProject();
  const recorded = await recordRun(root, "fruit", ["apple"]);
  const run = session(root, { run: recorded });
  assert.equal(used(run, "fruit", await run.answer("fruit")), "apple");
  run.recordInvocation({
    invocation: "inv-1",
    file: "tickets.py",
    line: 9,
    mode: "syntax",
    status: "finished",
    action: null,
    missingCapability: null,
    counters: counters({ model_calls: 0, replayed: 1 }),
    endedAt: new Date(),
  });
  await run.finish(END);
  const journal = await openJournal({ projectRoot: root, create: false });
  try {
    const summary = journal?.reads.get(recorded + 1);
    assert.deepEqual([summary?.mode, summary?.source_run, summary?.invocations, summary?.replayed, summary?.modelCalls], ["replay", recorded, 1, 1, 0]);
    assert.deepEqual(journal?.exchanges.countOf(recorded + 1), { exchanges: 1, replayed: 1 });
  } finally {
    journal?.close();
  }
});
