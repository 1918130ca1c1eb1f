// The journal's first schema (SPEC §11), migrations 1–3 of migrations.ts: runs with their
// timings, invocations with their counts and outcomes, and exchanges kept one row per request
// hash (1); capability results, indexes and long jobs (2, SPEC §10); replayed answers, cost per
// invocation and each exchange's block (3). Migration 4 turned the exchanges into a log
// (migrations.ts). These stay as they were applied: never edit an applied migration.

/** Each a `Migration` of migrations.ts (typed there, where they join the rest). */
export const FIRST_MIGRATIONS = [
  {
    version: 1,
    sql: `
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        started_at TEXT NOT NULL,
        ended_at TEXT,
        script TEXT NOT NULL,
        args_sha256 TEXT NOT NULL,
        arg_count INTEGER NOT NULL,
        replay INTEGER NOT NULL DEFAULT 0,
        pid INTEGER NOT NULL,
        aiython_version TEXT NOT NULL,
        exit_status INTEGER,
        exit_signal TEXT,
        total_seconds REAL,
        parse_seconds REAL,
        prepare_seconds REAL,
        execution_seconds REAL
      );
      CREATE TABLE invocations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id INTEGER NOT NULL REFERENCES runs(id),
        invocation TEXT NOT NULL,
        file TEXT NOT NULL,
        line INTEGER NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('syntax', 'recovery')),
        status TEXT NOT NULL CHECK (status IN ('finished', 'failed')),
        action TEXT,
        missing_capability TEXT,
        model_calls INTEGER NOT NULL,
        tool_calls INTEGER NOT NULL,
        tool_counts TEXT NOT NULL,
        request_bytes INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        total_tokens INTEGER NOT NULL,
        cached_tokens INTEGER NOT NULL,
        invalid_batches INTEGER NOT NULL,
        empty_responses INTEGER NOT NULL,
        tool_failures INTEGER NOT NULL,
        provider_seconds REAL NOT NULL,
        invocation_seconds REAL NOT NULL,
        ended_at TEXT NOT NULL
      );
      CREATE INDEX invocations_by_run ON invocations(run_id);
      CREATE TABLE exchanges (
        key TEXT PRIMARY KEY,
        route TEXT NOT NULL,
        model TEXT NOT NULL,
        request_json TEXT NOT NULL,
        response_json TEXT NOT NULL,
        run_id INTEGER REFERENCES runs(id),
        recorded_at TEXT NOT NULL
      );
    `,
  },
  {
    // SPEC §10: provider answers of capability steps (the 24 h cache, and --replay for journaled
    // ones), local indexes' chunks with their vectors, and long jobs that outlive a run.
    version: 2,
    sql: `
      CREATE TABLE capability_results (
        key TEXT PRIMARY KEY,
        capability TEXT NOT NULL,
        route TEXT NOT NULL,
        json TEXT NOT NULL,
        blob BLOB,
        journaled INTEGER NOT NULL DEFAULT 0,
        stored_at INTEGER NOT NULL
      );
      CREATE INDEX capability_results_by_age ON capability_results(journaled, stored_at);
      CREATE TABLE capability_chunks (
        index_name TEXT NOT NULL,
        model TEXT NOT NULL,
        source TEXT NOT NULL,
        chunk INTEGER NOT NULL,
        text TEXT NOT NULL,
        hash TEXT NOT NULL,
        page INTEGER,
        heading TEXT,
        vector BLOB NOT NULL,
        PRIMARY KEY (index_name, model, source, chunk)
      );
      CREATE TABLE capability_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key TEXT NOT NULL,
        capability TEXT NOT NULL,
        route TEXT NOT NULL,
        model TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('submitting', 'uncertain', 'queued', 'in_progress', 'completed', 'failed')),
        provider_job_id TEXT,
        origin TEXT,
        artifact_name TEXT NOT NULL,
        artifact TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX capability_jobs_by_key ON capability_jobs(key);
      CREATE TABLE invocation_capabilities (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        invocation TEXT NOT NULL,
        calls INTEGER NOT NULL,
        cached INTEGER NOT NULL,
        replayed INTEGER NOT NULL,
        counts TEXT NOT NULL,
        cost_usd REAL,
        PRIMARY KEY (run_id, invocation)
      );
    `,
  },
  {
    // SPEC §11, §13: replayed answers and cost per invocation (NULL: unknown, e.g. no price for a
    // route, or recorded before prices existed); the block of each exchange, so that a `--replay`
    // miss can name the nearest recorded request of the same block.
    version: 3,
    sql: `
      ALTER TABLE invocations ADD COLUMN replayed INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE invocations ADD COLUMN cost_usd REAL;
      ALTER TABLE invocations ADD COLUMN unpriced_routes TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE exchanges ADD COLUMN block TEXT;
      CREATE INDEX exchanges_by_block ON exchanges(block);
    `,
  },
] as const;
