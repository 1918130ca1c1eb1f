// The journal's exchanges (SPEC §11, §11.1): every answer a run got, in its order, with the
// request's hash and its occurrence in that run. Rows are only ever added: a request asked twice
// is two rows, and a later run never changes what an earlier one recorded. A replayed answer is a
// row naming the row it came from (`same_as`, always the row that holds the text), so a replay
// run is a run like any other and can itself be replayed or resumed. A request's JSON is stored
// without the parts it shares with others (request-parts.ts).

import { requestJsonOf, storeRequestJson } from "./request-parts.js";
import type { Row, Statements } from "./statements.js";
import type { ExchangeEntry, FoundAnswer, StoredRequest } from "./types.js";

/** A row's own answer, or the one it names. */
const ANSWER_SQL = `
  SELECT e.id, e.run_id, e.seq, COALESCE(e.same_as, e.id) AS origin, COALESCE(o.response_json, e.response_json) AS response_json
  FROM exchanges e LEFT JOIN exchanges o ON o.id = e.same_as`;

export class ExchangeLog {
  constructor(private readonly s: Statements) {}

  add(runId: number | null, entry: ExchangeEntry, at: Date): void {
    const { answer } = entry;
    const own = "sameAs" in answer ? null : answer;
    this.s
      .sql(
        `INSERT INTO exchanges (run_id, seq, key, occurrence, invocation, round, block, route, model, request_json, response_json, same_as, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        runId,
        entry.seq,
        entry.key,
        entry.occurrence,
        entry.invocation,
        entry.round,
        entry.block,
        entry.route,
        entry.model,
        own ? storeRequestJson(this.s, own.requestJson) : null,
        own?.responseJson ?? null,
        "sameAs" in answer ? answer.sameAs : null,
        at.toISOString(),
      );
  }

  /**
   * The `occurrence`-th answer to `key` (SPEC §11.1): the source run's, else the most recent other
   * run's that has that occurrence (never `except`, the run asking): the row that matched (its
   * id, run and place) and the row that holds the text (`origin`).
   */
  find(key: string, occurrence: number, source: number | null, except: number | null): FoundAnswer | null {
    const matched =
      (source === null ? undefined : (this.s.sql(`${ANSWER_SQL} WHERE e.run_id = ? AND e.key = ? AND e.occurrence = ?`).get(source, key, occurrence) as Row | undefined)) ??
      (this.s
        .sql(
          `${ANSWER_SQL} WHERE e.key = ? AND e.occurrence = ? AND (e.run_id IS NULL OR e.run_id NOT IN (COALESCE(?, -1), COALESCE(?, -1)))
           ORDER BY e.run_id DESC, e.id DESC LIMIT 1`,
        )
        .get(key, occurrence, source, except) as Row | undefined);
    if (!matched) return null;
    return {
      id: Number(matched.id),
      runId: matched.run_id === null ? null : Number(matched.run_id),
      seq: Number(matched.seq),
      responseJson: typeof matched.response_json === "string" ? matched.response_json : "",
      origin: Number(matched.origin),
    };
  }

  /** The occurrence the next answer to `key` in a run is (1 for the first): counted in the journal, so a recording run keeps nothing per request in memory. */
  nextOccurrence(runId: number, key: string): number {
    return Number(this.s.sql(`SELECT COALESCE(MAX(occurrence), 0) + 1 FROM exchanges WHERE run_id = ? AND key = ?`).pluck().get(runId, key));
  }

  /** The most recently recorded requests about one block ("file:line"), newest first. */
  requestsOfBlock(block: string, limit: number): StoredRequest[] {
    const rows = this.s
      .sql(`SELECT request_json, run_id, recorded_at FROM exchanges WHERE block = ? AND request_json IS NOT NULL ORDER BY recorded_at DESC, id DESC LIMIT ?`)
      .all(block, limit) as Row[];
    return rows.map((row) => ({
      requestJson: requestJsonOf(this.s, String(row.request_json)),
      runId: row.run_id === null ? null : Number(row.run_id),
      recordedAt: String(row.recorded_at),
    }));
  }

  /** How many answers a run got, and how many of them were replayed. */
  countOf(runId: number): { exchanges: number; replayed: number } {
    const row = this.s.sql(`SELECT COUNT(*) AS n, COALESCE(SUM(same_as IS NOT NULL), 0) AS replayed FROM exchanges WHERE run_id = ?`).get(runId) as Row;
    return { exchanges: Number(row.n), replayed: Number(row.replayed) };
  }
}
