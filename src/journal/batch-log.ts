// The batches of SPEC §14: each batch a run submits (to a provider's Batch API, or written to a
// folder for an engine such as `vllm run-batch`), with the requests it carries, written before it
// is submitted. A resumed run looks a request up here by its key and occurrence and re-attaches
// to the batch that carries it, so it is never paid for twice. A batch whose lines failed or
// expired is marked `failed` and never attached to again; its requests go into a later batch.

import type { Row, Statements } from "./statements.js";
import { textOrNull } from "./statements.js";

export type BatchKind = "api" | "dir";
export type BatchStatus = "submitting" | "submitted" | "completed" | "failed";

export interface BatchEntry {
  number: number;
  kind: BatchKind;
  route: string;
  /** The route's api_base, or the folder of a `dir:` batch. */
  place: string;
  /** Sent as the batch's metadata, so a resumed run can find a batch it never heard back about (api). */
  token?: string;
  requests: readonly { customId: string; key: string; occurrence: number }[];
}

/** A batch that carries a request, as a resumed run re-attaches to it. */
export interface CarryingBatch {
  id: number;
  runId: number;
  number: number;
  kind: BatchKind;
  route: string;
  place: string;
  /** The provider's batch id (api), or the requests file (dir); null while it was being submitted. */
  providerId: string | null;
  status: BatchStatus;
  customId: string;
  /** The token sent as its metadata, and its uploaded file (api; null when not known). */
  token: string | null;
  fileId: string | null;
}

/** A run's batch as `aiython runs show` lists it. */
export interface BatchSummary {
  number: number;
  kind: BatchKind;
  route: string;
  /** The provider's batch id (api) or the requests file (dir); null while being submitted. */
  providerId: string | null;
  status: BatchStatus;
  requests: number;
}

export class BatchLog {
  constructor(private readonly s: Statements) {}

  /** A batch about to be submitted, with its requests; its row id. */
  add(runId: number, entry: BatchEntry, at: Date): number {
    const stamp = at.toISOString();
    const result = this.s
      .sql(`INSERT INTO batches (run_id, number, kind, route, place, token, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'submitting', ?, ?)`)
      .run(runId, entry.number, entry.kind, entry.route, entry.place, entry.token ?? null, stamp, stamp);
    const id = Number(result.lastInsertRowid);
    const line = this.s.sql(`INSERT INTO batch_requests (batch_id, custom_id, key, occurrence) VALUES (?, ?, ?, ?)`);
    for (const request of entry.requests) line.run(id, request.customId, request.key, request.occurrence);
    return id;
  }

  /** The batch's input file, once uploaded (a batch still `submitting` can be created from it again). */
  uploaded(id: number, fileId: string, at: Date): void {
    this.s.sql(`UPDATE batches SET file_id = ?, updated_at = ? WHERE id = ?`).run(fileId, at.toISOString(), id);
  }

  /** The provider's id, once it accepted the batch (or the file, once written). */
  submitted(id: number, providerId: string, at: Date): void {
    this.s.sql(`UPDATE batches SET provider_id = ?, status = 'submitted', updated_at = ? WHERE id = ?`).run(providerId, at.toISOString(), id);
  }

  ended(id: number, status: "completed" | "failed", at: Date): void {
    this.s.sql(`UPDATE batches SET status = ?, updated_at = ? WHERE id = ?`).run(status, at.toISOString(), id);
  }

  /**
   * The newest batch with this request that was submitted and has not failed — or that was being
   * submitted to a Batch API when its run ended, which the provider may have created — or null.
   */
  carrying(key: string, occurrence: number): CarryingBatch | null {
    const row = this.s
      .sql(
        `SELECT b.*, r.custom_id FROM batch_requests r JOIN batches b ON b.id = r.batch_id
         WHERE r.key = ? AND r.occurrence = ? AND (b.provider_id IS NOT NULL AND b.status IN ('submitted', 'completed')
           OR b.provider_id IS NULL AND b.status = 'submitting' AND b.token IS NOT NULL)
         ORDER BY b.id DESC LIMIT 1`,
      )
      .get(key, occurrence) as Row | undefined;
    if (!row) return null;
    return {
      id: Number(row.id),
      runId: Number(row.run_id),
      number: Number(row.number),
      kind: row.kind as BatchKind,
      route: String(row.route),
      place: String(row.place),
      providerId: textOrNull(row.provider_id),
      status: row.status as BatchStatus,
      customId: String(row.custom_id),
      token: textOrNull(row.token),
      fileId: textOrNull(row.file_id),
    };
  }

  /** A run's batches in the order it submitted them, with how many requests each carries. */
  of(runId: number): BatchSummary[] {
    const rows = this.s
      .sql(
        `SELECT b.number, b.kind, b.route, b.provider_id, b.status, (SELECT COUNT(*) FROM batch_requests r WHERE r.batch_id = b.id) AS requests
         FROM batches b WHERE b.run_id = ? ORDER BY b.number, b.id`,
      )
      .all(runId) as Row[];
    return rows.map((row) => ({
      number: Number(row.number),
      kind: row.kind as BatchKind,
      route: String(row.route),
      providerId: textOrNull(row.provider_id),
      status: row.status as BatchStatus,
      requests: Number(row.requests),
    }));
  }

  /** How many batches a run submitted (the next one's number is this plus one). */
  countOf(runId: number): number {
    return Number(this.s.sql(`SELECT COUNT(*) FROM batches WHERE run_id = ?`).pluck().get(runId));
  }
}
