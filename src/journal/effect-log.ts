// Tool calls with effects (SPEC §11.2): `execute`, `set_binding` and the capability tools' calls
// are written here before they run (`started`), and marked `ended` after. A run that was cut
// short between the two leaves the effect uncertain: it may have happened. Resume reports it and
// never runs it again; the run that reported it records that as `uncertain`.

import type { Row, Statements } from "./statements.js";
import type { EffectEntry, EffectSummary } from "./types.js";

export class EffectLog {
  constructor(private readonly s: Statements) {}

  /** The intent of an effect, before it runs; its row id, for `end`. */
  start(runId: number, effect: EffectEntry, at: Date): number {
    const result = this.s
      .sql(`INSERT INTO effects (run_id, exchange_seq, call_id, tool, block, status, started_at) VALUES (?, ?, ?, ?, ?, 'started', ?)`)
      .run(runId, effect.exchangeSeq, effect.callId, effect.tool, effect.block, at.toISOString());
    return Number(result.lastInsertRowid);
  }

  end(id: number, at: Date): void {
    this.s.sql(`UPDATE effects SET status = 'ended', ended_at = ? WHERE id = ?`).run(at.toISOString(), id);
  }

  /** An effect this run did not run because an earlier run may have done it. */
  uncertain(runId: number, effect: EffectEntry, at: Date): void {
    this.s
      .sql(`INSERT INTO effects (run_id, exchange_seq, call_id, tool, block, status, started_at) VALUES (?, ?, ?, ?, ?, 'uncertain', ?)`)
      .run(runId, effect.exchangeSeq, effect.callId, effect.tool, effect.block, at.toISOString());
  }

  /** A run's effects in the order they started. */
  of(runId: number): EffectSummary[] {
    const rows = this.s.sql(`SELECT * FROM effects WHERE run_id = ? ORDER BY id`).all(runId) as Row[];
    return rows.map((row) => ({
      exchangeSeq: Number(row.exchange_seq),
      callId: String(row.call_id),
      tool: String(row.tool),
      block: row.block === null ? null : String(row.block),
      status: row.status as EffectSummary["status"],
      startedAt: String(row.started_at),
      endedAt: row.ended_at === null ? null : String(row.ended_at),
    }));
  }
}
