// The journal's runs (SPEC §11): a run's row from its start to its end, its invocations and the
// digests of its source files, and the choices resume, recheck and replay make among recorded
// runs (§11.1–§11.3). Reading runs back for `aiython runs` is run-reads.ts's.

import { argsHash } from "./exchange-key.js";
import { numberOrNull, type Row, type Statements } from "./statements.js";
import type { InvocationEntry, RunEnd, RunStart } from "./types.js";

/** Ends that are not the program's own (SPEC §11.2): a run that ended so is resumable. */
export const UNFINISHED_ENDS = ["signal", "time_limit", "budget", "internal", "lost", "batch_wait"] as const;

export class RunLog {
  constructor(private readonly s: Statements) {}

  start(run: RunStart): number {
    const result = this.s
      .sql(
        `INSERT INTO runs (started_at, script, args_sha256, arg_count, replay, pid, aiython_version, mode, argv, command_key, cwd,
           interpreter, profile, source_run, resumed_from)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        run.startedAt.toISOString(),
        run.script,
        argsHash(run.args),
        run.args.length,
        run.mode === "record" ? 0 : 1,
        run.pid,
        run.version,
        run.mode,
        run.argv === null ? null : JSON.stringify(run.argv),
        run.commandKey,
        run.cwd,
        run.interpreter === null ? null : JSON.stringify(run.interpreter),
        run.profile === null ? null : JSON.stringify(run.profile),
        run.sourceRun,
        run.resumedFrom,
      );
    return Number(result.lastInsertRowid);
  }

  end(id: number, end: RunEnd): void {
    this.s
      .sql(
        `UPDATE runs SET ended_at = ?, exit_status = ?, exit_signal = ?, ended_how = ?, total_seconds = ?, parse_seconds = ?,
           prepare_seconds = ?, execution_seconds = ? WHERE id = ?`,
      )
      .run(end.endedAt.toISOString(), end.status, end.signal, end.how, end.totalSeconds, end.parseSeconds, end.prepareSeconds, end.executionSeconds, id);
  }

  /** The interpreter, known once it said hello (after the row may have been written). */
  setInterpreter(id: number, interpreter: { executable: string; version: string }): void {
    this.s.sql(`UPDATE runs SET interpreter = ? WHERE id = ? AND interpreter IS NULL`).run(JSON.stringify(interpreter), id);
  }

  /** Digests of source files the run read; a path already recorded for the run keeps its first digest. */
  addFiles(id: number, files: readonly { path: string; sha256: string }[]): void {
    const insert = this.s.sql(`INSERT OR IGNORE INTO run_files (run_id, path, sha256) VALUES (?, ?, ?)`);
    for (const file of files) insert.run(id, file.path, file.sha256);
  }

  addInvocation(runId: number, entry: InvocationEntry): void {
    const c = entry.counters;
    this.s
      .sql(
        `INSERT INTO invocations (run_id, invocation, file, line, mode, status, action, missing_capability,
           model_calls, tool_calls, tool_counts, request_bytes, prompt_tokens, completion_tokens, total_tokens,
           cached_tokens, invalid_batches, empty_responses, tool_failures, provider_seconds, invocation_seconds, ended_at,
           replayed, cost_usd, unpriced_routes, batched)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        runId,
        entry.invocation,
        entry.file,
        entry.line,
        entry.mode,
        entry.status,
        entry.action,
        entry.missingCapability,
        c.model_calls,
        c.tool_calls,
        JSON.stringify(c.tool_counts),
        c.request_bytes,
        c.token_usage.prompt_tokens,
        c.token_usage.completion_tokens,
        c.token_usage.total_tokens,
        c.token_usage.cached_tokens,
        c.invalid_batches,
        c.empty_responses,
        c.tool_failures,
        c.provider_seconds,
        c.invocation_seconds,
        entry.endedAt.toISOString(),
        c.replayed,
        c.cost_usd,
        JSON.stringify(c.unpriced_routes),
        c.batched ?? 0,
      );
    const k = entry.capabilities;
    if (k) {
      this.s
        .sql(`INSERT INTO invocation_capabilities (run_id, invocation, calls, cached, replayed, counts, cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?)`)
        .run(runId, entry.invocation, k.calls, k.cached, k.replayed, JSON.stringify(k.counts), k.cost_usd);
    }
  }

  /**
   * The default source of a replay (SPEC §11.1): the most recent run of the same command line that
   * holds answers, never a recheck run and never `except` (the run asking).
   */
  latestOfCommand(commandKey: string, except: number | null): number | null {
    const row = this.s
      .sql(
        `SELECT r.id FROM runs r WHERE r.command_key = ? AND r.mode != 'recheck' AND r.id != ?
           AND EXISTS (SELECT 1 FROM exchanges e WHERE e.run_id = r.id) ORDER BY r.id DESC LIMIT 1`,
      )
      .get(commandKey, except ?? -1) as Row | undefined;
    return row ? Number(row.id) : null;
  }

  /**
   * Runs that did not end normally (SPEC §11.2), newest first: an end that is not the program's own,
   * or no end at all — unless a resume of it has since ended normally. Recheck runs are never resumed.
   */
  unfinished(limit: number): { id: number; pid: number; endedAt: string | null }[] {
    const ends = UNFINISHED_ENDS.map((end) => `'${end}'`).join(", ");
    const rows = this.s
      .sql(
        `SELECT id, pid, ended_at FROM runs r WHERE mode != 'recheck' AND (ended_at IS NULL OR ended_how IN (${ends}))
           AND NOT EXISTS (SELECT 1 FROM runs later WHERE later.resumed_from = r.id AND later.ended_how = 'exit') ORDER BY id DESC LIMIT ?`,
      )
      .all(limit) as Row[];
    return rows.map((row) => ({ id: Number(row.id), pid: Number(row.pid), endedAt: row.ended_at === null ? null : String(row.ended_at) }));
  }

  /** SPEC §11.3's default: the most recent run of each distinct command line that ended as the program ended it, newest first. */
  latestPerCommand(limit: number): number[] {
    const rows = this.s
      .sql(
        `SELECT MAX(id) AS id FROM runs WHERE mode != 'recheck' AND command_key IS NOT NULL AND argv IS NOT NULL AND ended_how = 'exit'
         GROUP BY command_key ORDER BY id DESC LIMIT ?`,
      )
      .all(limit) as Row[];
    return rows.map((row) => Number(row.id));
  }

  exists(id: number): boolean {
    return numberOrNull((this.s.sql(`SELECT id FROM runs WHERE id = ?`).get(id) as Row | undefined)?.id) !== null;
  }
}
