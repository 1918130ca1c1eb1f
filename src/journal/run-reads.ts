// Reading recorded runs back (SPEC §11: `aiython runs list|show`, resume and recheck): a run's
// summary with its totals, its invocations, and its full record. Every JSON column is read
// tolerantly (statements.ts): a damaged value shows as unknown, it never fails the command.

import { isRecord, jsonColumn, numberOrNull, textOrNull, type Row, type Statements } from "./statements.js";
import type { EndedHow, InvocationSummary, RunMode, RunRecord, RunSummary } from "./types.js";

const RUN_SUMMARY_SQL = `
  SELECT r.*,
         COUNT(i.id) AS invocations,
         COALESCE(SUM(i.model_calls), 0) AS model_calls,
         COALESCE(SUM(i.replayed), 0) AS replayed,
         COALESCE(SUM(i.cost_usd), 0) AS cost_usd,
         COALESCE(SUM(i.id IS NOT NULL AND i.cost_usd IS NULL), 0) AS unknown_costs,
         (SELECT json_group_array(DISTINCT u.value) FROM invocations i2,
           json_each(CASE WHEN json_valid(i2.unpriced_routes) THEN i2.unpriced_routes ELSE '[]' END) u WHERE i2.run_id = r.id) AS unpriced_routes,
         COALESCE(SUM(i.tool_calls), 0) AS tool_calls,
         COALESCE(SUM(i.request_bytes), 0) AS request_bytes,
         COALESCE(SUM(i.total_tokens), 0) AS total_tokens
  FROM runs r LEFT JOIN invocations i ON i.run_id = r.id`;

export class RunReads {
  constructor(private readonly s: Statements) {}

  /** The most recent runs, newest first. */
  list(limit: number): RunSummary[] {
    return (this.s.sql(`${RUN_SUMMARY_SQL} GROUP BY r.id ORDER BY r.id DESC LIMIT ?`).all(limit) as Row[]).map(runSummary);
  }

  get(id: number): RunSummary | null {
    const row = this.s.sql(`${RUN_SUMMARY_SQL} WHERE r.id = ? GROUP BY r.id`).get(id) as Row | undefined;
    return row ? runSummary(row) : null;
  }

  /** A run with what resume and recheck need: its pid, command key and file digests. */
  record(id: number): RunRecord | null {
    const row = this.s.sql(`${RUN_SUMMARY_SQL} WHERE r.id = ? GROUP BY r.id`).get(id) as Row | undefined;
    if (!row) return null;
    const files = (this.s.sql(`SELECT path, sha256 FROM run_files WHERE run_id = ? ORDER BY path`).all(id) as Row[]).map((file) => ({
      path: String(file.path),
      sha256: String(file.sha256),
    }));
    return { ...runSummary(row), pid: Number(row.pid), commandKey: textOrNull(row.command_key), files };
  }

  invocationsOf(runId: number): InvocationSummary[] {
    const rows = this.s
      .sql(
        `SELECT i.*, c.calls AS capability_calls, c.cached AS capability_cached, c.replayed AS capability_replayed, c.counts AS capability_counts, c.cost_usd AS capability_cost
         FROM invocations i LEFT JOIN invocation_capabilities c ON c.run_id = i.run_id AND c.invocation = i.invocation WHERE i.run_id = ? ORDER BY i.id`,
      )
      .all(runId) as Row[];
    return rows.map(invocationSummary);
  }
}

function runSummary(row: Row): RunSummary {
  const mode = (textOrNull(row.mode) ?? (Number(row.replay) === 1 ? "replay" : "record")) as RunMode;
  return {
    id: Number(row.id),
    startedAt: String(row.started_at),
    endedAt: textOrNull(row.ended_at),
    script: String(row.script),
    replay: mode !== "record",
    mode,
    source_run: numberOrNull(row.source_run),
    resumed_from: numberOrNull(row.resumed_from),
    ended_how: textOrNull(row.ended_how) as EndedHow | null,
    command_line: jsonColumn<string[] | null>(row.argv, null, (v) => Array.isArray(v) && v.every((word) => typeof word === "string")),
    cwd: textOrNull(row.cwd),
    interpreter: jsonColumn(row.interpreter, null, isRecord),
    profile: jsonColumn(row.profile, null, isRecord),
    exitStatus: numberOrNull(row.exit_status),
    exitSignal: textOrNull(row.exit_signal),
    invocations: Number(row.invocations),
    modelCalls: Number(row.model_calls),
    replayed: Number(row.replayed),
    toolCalls: Number(row.tool_calls),
    requestBytes: Number(row.request_bytes),
    totalTokens: Number(row.total_tokens),
    costUsd: Number(row.unknown_costs) > 0 ? null : Number(row.cost_usd),
    unpricedRoutes: jsonColumn<string[]>(row.unpriced_routes, [], Array.isArray),
    totalSeconds: numberOrNull(row.total_seconds),
    parseSeconds: numberOrNull(row.parse_seconds),
    prepareSeconds: numberOrNull(row.prepare_seconds),
    executionSeconds: numberOrNull(row.execution_seconds),
  };
}

function invocationSummary(row: Row): InvocationSummary {
  return {
    invocation: String(row.invocation),
    file: String(row.file),
    line: Number(row.line),
    mode: row.mode as InvocationSummary["mode"],
    status: row.status as InvocationSummary["status"],
    action: textOrNull(row.action),
    missingCapability: textOrNull(row.missing_capability),
    capabilities:
      row.capability_calls === null || row.capability_calls === undefined
        ? null
        : {
            calls: Number(row.capability_calls),
            cached: Number(row.capability_cached),
            replayed: Number(row.capability_replayed),
            counts: jsonColumn<Record<string, number>>(row.capability_counts, {}, isRecord),
            cost_usd: numberOrNull(row.capability_cost),
          },
    endedAt: String(row.ended_at),
    counters: {
      model_calls: Number(row.model_calls),
      replayed: Number(row.replayed),
      batched: Number(row.batched ?? 0),
      tool_calls: Number(row.tool_calls),
      tool_counts: jsonColumn<Record<string, number>>(row.tool_counts, {}, isRecord),
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
      cost_usd: numberOrNull(row.cost_usd),
      unpriced_routes: jsonColumn<string[]>(row.unpriced_routes, [], Array.isArray),
    },
  };
}
