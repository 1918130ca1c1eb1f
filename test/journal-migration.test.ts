// Journals written before the run-faithful journal (schema 3: one exchange per request hash) keep
// working (SPEC §11): opened by this aiython they are migrated in place and lose nothing — every
// exchange becomes its run's first occurrence, in recorded order, every run and invocation stays —
// and one in a folder that cannot be written is still read, migrated in memory, the file untouched.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { journalPath, openJournal, SCHEMA_VERSION } from "../src/journal/index.js";
import { MIGRATIONS } from "../src/journal/migrations.js";
import { makeUnwritable, tempProject } from "./support/journal-helpers.js";

/** A journal as aiython wrote it at schema 3: two runs, one invocation, three exchanges. */
function schema3Journal(root: string): string {
  const file = journalPath(root);
  fs.mkdirSync(path.dirname(file), { mode: 0o700 });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  for (const migration of MIGRATIONS.filter((m) => m.version <= 3)) db.exec(migration.sql);
  db.pragma("user_version = 3");
  const run = db.prepare(`INSERT INTO runs (started_at, ended_at, script, args_sha256, arg_count, replay, pid, aiython_version, exit_status)
    VALUES (?, ?, 'tickets.py', 'h', 0, ?, 1, 'old', ?)`);
  run.run("2025-01-01T00:00:00Z", "2025-01-01T00:00:05Z", 0, 0);
  run.run("2025-01-02T00:00:00Z", null, 1, null);
  db.prepare(`INSERT INTO invocations (run_id, invocation, file, line, mode, status, model_calls, tool_calls, tool_counts, request_bytes, prompt_tokens,
    completion_tokens, total_tokens, cached_tokens, invalid_batches, empty_responses, tool_failures, provider_seconds, invocation_seconds, ended_at)
    VALUES (1, 'inv-1', 'tickets.py', 9, 'syntax', 'finished', 1, 1, '{}', 10, 1, 1, 2, 0, 0, 0, 0, 0.1, 0.1, '2025-01-01T00:00:01Z')`).run();
  const exchange = db.prepare(
    `INSERT INTO exchanges (key, route, model, request_json, response_json, run_id, recorded_at, block) VALUES (?, 'r', 'm', ?, ?, 1, ?, 'tickets.py:9')`,
  );
  exchange.run("k-late", '{"q":2}', '{"a":2}', "2025-01-01T00:00:03Z");
  exchange.run("k-early", '{"q":1}', '{"a":1}', "2025-01-01T00:00:02Z");
  exchange.run("k-last", '{"q":3}', '{"a":3}', "2025-01-01T00:00:04Z");
  db.close();
  return file;
}

function exchangesOf(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT run_id, seq, key, occurrence, response_json FROM exchanges ORDER BY seq").all();
  } finally {
    db.close();
  }
}

test("a schema 3 journal is migrated in place: every exchange becomes its run's first occurrence, in recorded order", async () => {
  const root = tempProject();
  const file = schema3Journal(root);
  const journal = await openJournal({ projectRoot: root, create: true });
  try {
    assert.deepEqual(
      journal.reads.list(10).map((run) => [run.id, run.mode, run.ended_how, run.invocations]),
      [
        [2, "replay", null, 0],
        [1, "record", "exit", 1],
      ],
    );
    assert.equal(journal.exchanges.find("k-late", 1, 1, null)?.responseJson, '{"a":2}');
    assert.equal(journal.exchanges.find("k-late", 1, null, 2)?.runId, 1, "found from any other run, as --replay found it before");
  } finally {
    journal.close();
  }
  assert.deepEqual(exchangesOf(file), [
    { run_id: 1, seq: 1, key: "k-early", occurrence: 1, response_json: '{"a":1}' },
    { run_id: 1, seq: 2, key: "k-late", occurrence: 1, response_json: '{"a":2}' },
    { run_id: 1, seq: 3, key: "k-last", occurrence: 1, response_json: '{"a":3}' },
  ]);
  const db = new Database(file, { readonly: true });
  assert.equal(db.pragma("user_version", { simple: true }), SCHEMA_VERSION);
  db.close();
});

test("a schema 3 journal in a folder that cannot be written is read, migrated in memory, and left as it was", async (t) => {
  const root = tempProject();
  const file = schema3Journal(root);
  const before = fs.readFileSync(file);
  const undo = makeUnwritable(path.dirname(file));
  if (!undo) return t.skip("cannot make a folder unwritable here");
  try {
    const journal = await openJournal({ projectRoot: root, create: false });
    assert.ok(journal);
    assert.equal(journal.readOnly, true);
    assert.equal(journal.reads.list(10).length, 2);
    assert.equal(journal.exchanges.find("k-last", 1, 1, null)?.responseJson, '{"a":3}');
    journal.close();
    await assert.rejects(openJournal({ projectRoot: root, create: true }), /cannot be opened for writing/);
  } finally {
    undo();
  }
  assert.deepEqual(fs.readFileSync(file), before, "the file is untouched");
});
