// The journal's schema (SPEC §11) as numbered migrations. `PRAGMA user_version` holds the number
// of the last one applied; opening a journal applies the missing ones inside one IMMEDIATE
// transaction, so two processes opening a new journal at once migrate it exactly once. Append new
// migrations; never edit an applied one. The first three are first-migrations.ts's.
//
// What is stored where: runs hold their command line (keys redacted: resume re-runs it, SPEC
// §11.2), folder, interpreter, profile and the digests of their source files; invocations hold
// counts, timings, locations and outcomes only — never program values, prompts or failure reasons.
// Program data appears only inside the recorded model exchanges, which `--replay` needs verbatim.
//
// From version 4 the exchanges are a log (SPEC §11): one row per answer a run got, in its order
// (`seq`), with the request's hash and its occurrence in that run; rows are only ever added. A
// replayed answer is a row too, naming the row it came from (`same_as`) instead of copying it.
// Batch offload (SPEC §14) adds its batches beside this log: a request waiting in a batch is not
// an exchange until its answer is in, and then it is one like any other.

import type BetterSqlite3 from "better-sqlite3";
import { FIRST_MIGRATIONS } from "./first-migrations.js";
import { JournalUnavailableError } from "./unavailable.js";

export interface Migration {
  version: number;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  ...FIRST_MIGRATIONS,
  {
    // SPEC §11, §11.1–§11.3: run-scoped, ordered exchanges (nothing recorded is overwritten: the
    // old one-row-per-hash table becomes each row's run's first occurrence, in recorded order);
    // the command line, folder, interpreter and profile of a run, what kind of run it was and
    // how it ended; the digests of its source files; and the effects tool calls started (their
    // intent written before they run, SPEC §11.2).
    version: 4,
    sql: `
      ALTER TABLE runs ADD COLUMN mode TEXT NOT NULL DEFAULT 'record'
        CHECK (mode IN ('record', 'replay', 'fill', 'resume', 'recheck'));
      UPDATE runs SET mode = 'replay' WHERE replay = 1;
      ALTER TABLE runs ADD COLUMN argv TEXT;
      ALTER TABLE runs ADD COLUMN command_key TEXT;
      ALTER TABLE runs ADD COLUMN cwd TEXT;
      ALTER TABLE runs ADD COLUMN interpreter TEXT;
      ALTER TABLE runs ADD COLUMN profile TEXT;
      ALTER TABLE runs ADD COLUMN source_run INTEGER;
      ALTER TABLE runs ADD COLUMN resumed_from INTEGER;
      ALTER TABLE runs ADD COLUMN ended_how TEXT;
      UPDATE runs SET ended_how = CASE
          WHEN exit_signal IS NOT NULL THEN 'signal'
          WHEN exit_status = 75 THEN 'budget'
          WHEN exit_status = 124 THEN 'time_limit'
          WHEN exit_status = 70 THEN 'internal'
          ELSE 'exit' END
        WHERE ended_at IS NOT NULL;
      CREATE INDEX runs_by_command ON runs(command_key, id);
      CREATE TABLE run_files (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        path TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        PRIMARY KEY (run_id, path)
      );
      DROP INDEX exchanges_by_block;
      ALTER TABLE exchanges RENAME TO exchanges_v3;
      CREATE TABLE exchanges (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id INTEGER REFERENCES runs(id),
        seq INTEGER NOT NULL,
        key TEXT NOT NULL,
        occurrence INTEGER NOT NULL,
        invocation TEXT,
        round INTEGER,
        block TEXT,
        route TEXT NOT NULL,
        model TEXT NOT NULL,
        request_json TEXT,
        response_json TEXT,
        same_as INTEGER REFERENCES exchanges(id),
        recorded_at TEXT NOT NULL,
        CHECK ((same_as IS NULL) = (response_json IS NOT NULL))
      );
      INSERT INTO exchanges (run_id, seq, key, occurrence, block, route, model, request_json, response_json, recorded_at)
        SELECT run_id, ROW_NUMBER() OVER (PARTITION BY run_id ORDER BY recorded_at, rowid), key, 1, block, route, model,
               request_json, response_json, recorded_at
        FROM exchanges_v3 ORDER BY recorded_at, rowid;
      DROP TABLE exchanges_v3;
      CREATE UNIQUE INDEX exchanges_in_run ON exchanges(run_id, key, occurrence);
      CREATE INDEX exchanges_by_key ON exchanges(key, occurrence);
      CREATE INDEX exchanges_by_block ON exchanges(block);
      CREATE INDEX exchanges_by_run ON exchanges(run_id, seq);
      CREATE TABLE effects (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id INTEGER NOT NULL REFERENCES runs(id),
        exchange_seq INTEGER NOT NULL,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        block TEXT,
        status TEXT NOT NULL CHECK (status IN ('started', 'ended', 'uncertain')),
        started_at TEXT NOT NULL,
        ended_at TEXT
      );
      CREATE INDEX effects_by_run ON effects(run_id, exchange_seq);
    `,
  },
  {
    // The parts requests share (the system prompt, a block's stable message, the tool schemas),
    // kept once each rather than in every exchange's request_json (request-parts.ts).
    version: 5,
    sql: `
      CREATE TABLE request_parts (
        hash TEXT PRIMARY KEY,
        json TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    // SPEC §14: batches a run submitted (to a Batch API, or written to a folder for an engine such
    // as `vllm run-batch`) and the requests each carries, written before the submission, so that
    // `aiython resume` re-attaches to a batch instead of submitting its requests again; and how
    // many of an invocation's requests went by batch.
    version: 6,
    sql: `
      CREATE TABLE batches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id INTEGER NOT NULL REFERENCES runs(id),
        number INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('api', 'dir')),
        route TEXT NOT NULL,
        place TEXT NOT NULL,
        provider_id TEXT,
        status TEXT NOT NULL CHECK (status IN ('submitting', 'submitted', 'completed', 'failed')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX batches_by_run ON batches(run_id, number);
      CREATE TABLE batch_requests (
        batch_id INTEGER NOT NULL REFERENCES batches(id),
        custom_id TEXT NOT NULL,
        key TEXT NOT NULL,
        occurrence INTEGER NOT NULL,
        PRIMARY KEY (batch_id, custom_id)
      );
      CREATE INDEX batch_requests_by_key ON batch_requests(key, occurrence);
      ALTER TABLE invocations ADD COLUMN batched INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    // SPEC §14: a batch's token (sent as its metadata) and its uploaded file, so that a run killed
    // between the upload and the provider's answer to POST /batches finds the batch the provider
    // may have created instead of submitting (and paying for) it again.
    version: 7,
    sql: `
      ALTER TABLE batches ADD COLUMN token TEXT;
      ALTER TABLE batches ADD COLUMN file_id TEXT;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Applies the missing migrations in one IMMEDIATE transaction; a journal of a newer schema is refused. `shown` names the file. */
export function migrate(db: BetterSqlite3.Database, shown: string): void {
  const apply = db.transaction(() => {
    const current = Number(db.pragma("user_version", { simple: true }));
    if (current > SCHEMA_VERSION) {
      throw new JournalUnavailableError(`${shown} was written by a newer aiython (schema ${current}, this one knows ${SCHEMA_VERSION}); upgrade aiython or move the file away`);
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }
  });
  apply.immediate();
}
