// The journal's reads and writes (SPEC §11) over one open better-sqlite3 connection. Every write
// is one short statement, in its own transaction or in a short batch of them (`inTransaction`),
// so concurrent processes of one project wait for each other (busy timeout) instead of losing
// rows. Timestamps are ISO 8601 in UTC.

import type BetterSqlite3 from "better-sqlite3";
import { argsHash } from "./exchange-key.js";
import type { InvocationEntry, InvocationSummary, RunEnd, RunStart, RunSummary, StoredExchange } from "./types.js";

const RUN_SUMMARY_SQL = `
  SELECT r.id, r.started_at, r.ended_at, r.script, r.replay, r.exit_status, r.exit_signal,
         r.total_seconds, r.parse_seconds, r.prepare_seconds, r.execution_seconds,
         COUNT(i.id) AS invocations,
         COALESCE(SUM(i.model_calls), 0) AS model_calls,
         COALESCE(SUM(i.replayed), 0) AS replayed,
         COALESCE(SUM(i.cost_usd), 0) AS cost_usd,
         COALESCE(SUM(i.id IS NOT NULL AND i.cost_usd IS NULL), 0) AS unknown_costs,
         (SELECT json_group_array(DISTINCT u.value) FROM invocations i2, json_each(i2.unpriced_routes) u
           WHERE i2.run_id = r.id) AS unpriced_routes,
         COALESCE(SUM(i.tool_calls), 0) AS tool_calls,
         COALESCE(SUM(i.request_bytes), 0) AS request_bytes,
         COALESCE(SUM(i.total_tokens), 0) AS total_tokens
  FROM runs r LEFT JOIN invocations i ON i.run_id = r.id`;

type Row = Record<string, unknown>;

export class Journal {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(
    private readonly db: BetterSqlite3.Database,
    /** Absolute path of the database file. */
    readonly file: string,
  ) {}

  startRun(run: RunStart): number {
    const result = this.statement(
      `INSERT INTO runs (started_at, script, args_sha256, arg_count, replay, pid, aiython_version)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(run.startedAt.toISOString(), run.script, argsHash(run.args), run.args.length, run.replay ? 1 : 0, run.pid, run.version);
    return Number(result.lastInsertRowid);
  }

  endRun(id: number, end: RunEnd): void {
    this.statement(
      `UPDATE runs SET ended_at = ?, exit_status = ?, exit_signal = ?, total_seconds = ?, parse_seconds = ?,
         prepare_seconds = ?, execution_seconds = ? WHERE id = ?`,
    ).run(end.endedAt.toISOString(), end.status, end.signal, end.totalSeconds, end.parseSeconds, end.prepareSeconds, end.executionSeconds, id);
  }

  addInvocation(runId: number, entry: InvocationEntry): void {
    const c = entry.counters;
    this.statement(
      `INSERT INTO invocations (run_id, invocation, file, line, mode, status, action, missing_capability,
         model_calls, tool_calls, tool_counts, request_bytes, prompt_tokens, completion_tokens, total_tokens,
         cached_tokens, invalid_batches, empty_responses, tool_failures, provider_seconds, invocation_seconds, ended_at,
         replayed, cost_usd, unpriced_routes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
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
    );
    const k = entry.capabilities;
    if (k) {
      this.statement(`INSERT INTO invocation_capabilities (run_id, invocation, calls, cached, replayed, counts, cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
        runId,
        entry.invocation,
        k.calls,
        k.cached,
        k.replayed,
        JSON.stringify(k.counts),
        k.cost_usd,
      );
    }
  }

  /** Stores an answer under its request key; a later recording of the same request replaces it. */
  putExchange(runId: number | null, exchange: StoredExchange, at: Date): void {
    this.statement(
      `INSERT INTO exchanges (key, route, model, request_json, response_json, run_id, recorded_at, block)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET route = excluded.route, model = excluded.model,
         request_json = excluded.request_json, response_json = excluded.response_json,
         run_id = excluded.run_id, recorded_at = excluded.recorded_at, block = excluded.block`,
    ).run(exchange.key, exchange.route, exchange.model, exchange.requestJson, exchange.responseJson, runId, at.toISOString(), exchange.block ?? null);
  }

  /** The most recently recorded requests about one block ("file:line"), newest first. */
  exchangesOfBlock(block: string, limit: number): StoredExchange[] {
    const rows = this.statement(
      `SELECT key, route, model, request_json, response_json, block, run_id, recorded_at FROM exchanges WHERE block = ? ORDER BY recorded_at DESC, rowid DESC LIMIT ?`,
    ).all(block, limit) as Row[];
    return rows.map((row) => ({ ...exchangeOf(row), runId: row.run_id === null ? null : Number(row.run_id), recordedAt: String(row.recorded_at) }));
  }

  findExchange(key: string): StoredExchange | null {
    const row = this.statement(`SELECT key, route, model, request_json, response_json, block FROM exchanges WHERE key = ?`).get(key) as Row | undefined;
    return row ? exchangeOf(row) : null;
  }

  /** The most recent runs, newest first. */
  listRuns(limit: number): RunSummary[] {
    const rows = this.statement(`${RUN_SUMMARY_SQL} GROUP BY r.id ORDER BY r.id DESC LIMIT ?`).all(limit) as Row[];
    return rows.map(runSummary);
  }

  getRun(id: number): RunSummary | null {
    const row = this.statement(`${RUN_SUMMARY_SQL} WHERE r.id = ? GROUP BY r.id`).get(id) as Row | undefined;
    return row ? runSummary(row) : null;
  }

  invocationsOf(runId: number): InvocationSummary[] {
    const rows = this.statement(
      `SELECT i.*, c.calls AS capability_calls, c.cached AS capability_cached, c.replayed AS capability_replayed, c.counts AS capability_counts, c.cost_usd AS capability_cost
       FROM invocations i LEFT JOIN invocation_capabilities c ON c.run_id = i.run_id AND c.invocation = i.invocation WHERE i.run_id = ? ORDER BY i.id`,
    ).all(runId) as Row[];
    return rows.map((row) => ({
      invocation: String(row.invocation),
      file: String(row.file),
      line: Number(row.line),
      mode: row.mode as InvocationSummary["mode"],
      status: row.status as InvocationSummary["status"],
      action: (row.action as string | null) ?? null,
      missingCapability: (row.missing_capability as string | null) ?? null,
      capabilities:
        row.capability_calls === null || row.capability_calls === undefined
          ? null
          : {
              calls: Number(row.capability_calls),
              cached: Number(row.capability_cached),
              replayed: Number(row.capability_replayed),
              counts: JSON.parse(String(row.capability_counts)) as Record<string, number>,
              cost_usd: row.capability_cost === null ? null : Number(row.capability_cost),
            },
      endedAt: String(row.ended_at),
      counters: {
        model_calls: Number(row.model_calls),
        replayed: Number(row.replayed),
        tool_calls: Number(row.tool_calls),
        tool_counts: JSON.parse(String(row.tool_counts)) as Record<string, number>,
        request_bytes: Number(row.request_bytes),
        token_usage: {
          prompt_tokens: Number(row.prompt_tokens),
          completion_tokens: Number(row.completion_tokens),
          total_tokens: Number(row.total_tokens),
          cached_tokens: Number(row.cached_tokens),
        },
        invalid_batches: Number(row.invalid_batches),
        empty_responses: Number(row.empty_responses),
        tool_failures: Number(row.tool_failures),
        provider_seconds: Number(row.provider_seconds),
        invocation_seconds: Number(row.invocation_seconds),
        cost_usd: row.cost_usd === null ? null : Number(row.cost_usd),
        unpriced_routes: JSON.parse(String(row.unpriced_routes)) as string[],
      },
    }));
  }

  /** Runs `writes` in one transaction, which takes the write lock at its start: all of them are kept, or none. */
  inTransaction(writes: () => void): void {
    this.db.transaction(writes).immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private statement(sql: string): BetterSqlite3.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }
}

function runSummary(row: Row): RunSummary {
  const seconds = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: Number(row.id),
    startedAt: String(row.started_at),
    endedAt: (row.ended_at as string | null) ?? null,
    script: String(row.script),
    replay: Number(row.replay) === 1,
    exitStatus: row.exit_status === null ? null : Number(row.exit_status),
    exitSignal: (row.exit_signal as string | null) ?? null,
    invocations: Number(row.invocations),
    modelCalls: Number(row.model_calls),
    replayed: Number(row.replayed),
    toolCalls: Number(row.tool_calls),
    requestBytes: Number(row.request_bytes),
    totalTokens: Number(row.total_tokens),
    costUsd: Number(row.unknown_costs) > 0 ? null : Number(row.cost_usd),
    unpricedRoutes: JSON.parse(String(row.unpriced_routes ?? "[]")) as string[],
    totalSeconds: seconds(row.total_seconds),
    parseSeconds: seconds(row.parse_seconds),
    prepareSeconds: seconds(row.prepare_seconds),
    executionSeconds: seconds(row.execution_seconds),
  };
}

function exchangeOf(row: Row): StoredExchange {
  return {
    key: String(row.key),
    route: String(row.route),
    model: String(row.model),
    requestJson: String(row.request_json),
    responseJson: String(row.response_json),
    block: (row.block as string | null) ?? null,
  };
}
