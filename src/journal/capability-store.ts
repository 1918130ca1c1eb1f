// The capabilities' part of the project's SQLite (SPEC §10): provider answers (cache and replay),
// local indexes (chunks with Float32 vectors), and long jobs, behind the CapabilityStore shape that
// src/capabilities declares (matched structurally: this layer imports nothing of that one). Its
// own connection to `.aiython/aiython.sqlite`, opened like the journal's (WAL, busy timeout,
// migrations); every write is one short statement or one transaction.

import type BetterSqlite3 from "better-sqlite3";
import { openDatabase } from "./open-journal.js";

type Row = Record<string, unknown>;

export interface StoredChunk {
  source: string;
  chunk: number;
  text: string;
  hash: string;
  page: number | null;
  heading: string | null;
  vector: Float32Array;
}

export interface StoredJob {
  id: number;
  key: string;
  capability: string;
  route: string;
  model: string;
  status: "submitting" | "uncertain" | "queued" | "in_progress" | "completed" | "failed";
  provider_job_id: string | null;
  origin: string | null;
  artifact_name: string;
  artifact: string | null;
  created_at: string;
}

export async function openCapabilityStore(opts: { projectRoot: string; cwd?: string }): Promise<CapabilityStoreDb> {
  const opened = await openDatabase({ projectRoot: opts.projectRoot, cwd: opts.cwd, create: true });
  return new CapabilityStoreDb(opened!.db);
}

export class CapabilityStoreDb {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {}

  findResult(key: string): { json: string; blob: Buffer | null; storedAt: number } | null {
    const row = this.sql(`SELECT json, blob, stored_at FROM capability_results WHERE key = ?`).get(key) as Row | undefined;
    return row ? { json: String(row.json), blob: (row.blob as Buffer | null) ?? null, storedAt: Number(row.stored_at) } : null;
  }

  /** A journaled answer stays journaled when a cache-only write replaces it. */
  putResult(entry: { key: string; capability: string; route: string; json: string; blob: Buffer | null; journaled: boolean }): void {
    this.sql(
      `INSERT INTO capability_results (key, capability, route, json, blob, journaled, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET capability = excluded.capability, route = excluded.route, json = excluded.json,
         blob = excluded.blob, journaled = MAX(journaled, excluded.journaled), stored_at = excluded.stored_at`,
    ).run(entry.key, entry.capability, entry.route, entry.json, entry.blob, entry.journaled ? 1 : 0, Date.now());
  }

  pruneResults(maxAgeMs: number): void {
    this.sql(`DELETE FROM capability_results WHERE journaled = 0 AND stored_at < ?`).run(Date.now() - maxAgeMs);
  }

  chunksOf(index: string, model: string, source: string): StoredChunk[] {
    return (this.sql(`SELECT * FROM capability_chunks WHERE index_name = ? AND model = ? AND source = ? ORDER BY chunk`).all(index, model, source) as Row[]).map(chunkOf);
  }

  putSource(index: string, model: string, source: string, chunks: StoredChunk[]): void {
    const insert = this.sql(`INSERT INTO capability_chunks (index_name, model, source, chunk, text, hash, page, heading, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.db.transaction(() => {
      this.removeSource(index, model, source);
      for (const c of chunks) insert.run(index, model, source, c.chunk, c.text, c.hash, c.page, c.heading, Buffer.from(c.vector.buffer, c.vector.byteOffset, c.vector.byteLength));
    })();
  }

  removeSource(index: string, model: string, source: string): void {
    this.sql(`DELETE FROM capability_chunks WHERE index_name = ? AND model = ? AND source = ?`).run(index, model, source);
  }

  sourcesOf(index: string, model: string): string[] {
    return (this.sql(`SELECT DISTINCT source FROM capability_chunks WHERE index_name = ? AND model = ? ORDER BY source`).all(index, model) as Row[]).map((r) => String(r.source));
  }

  allChunks(index: string, model: string): StoredChunk[] {
    return (this.sql(`SELECT * FROM capability_chunks WHERE index_name = ? AND model = ? ORDER BY source, chunk`).all(index, model) as Row[]).map(chunkOf);
  }

  modelsOf(index: string): string[] {
    return (this.sql(`SELECT DISTINCT model FROM capability_chunks WHERE index_name = ? ORDER BY model`).all(index) as Row[]).map((r) => String(r.model));
  }

  createJob(job: Omit<StoredJob, "id" | "created_at" | "artifact">): number {
    const now = new Date().toISOString();
    const result = this.sql(
      `INSERT INTO capability_jobs (key, capability, route, model, status, provider_job_id, origin, artifact_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(job.key, job.capability, job.route, job.model, job.status, job.provider_job_id, job.origin, job.artifact_name, now, now);
    return Number(result.lastInsertRowid);
  }

  updateJob(id: number, patch: Partial<Pick<StoredJob, "status" | "provider_job_id" | "artifact">>): void {
    const fields = Object.entries(patch).filter(([, v]) => v !== undefined);
    if (fields.length === 0) return;
    const set = fields.map(([k]) => `${k} = ?`).join(", ");
    this.db.prepare(`UPDATE capability_jobs SET ${set}, updated_at = ? WHERE id = ?`).run(...fields.map(([, v]) => v), new Date().toISOString(), id);
  }

  job(id: number): StoredJob | null {
    const row = this.sql(`SELECT * FROM capability_jobs WHERE id = ?`).get(id) as Row | undefined;
    return row ? jobOf(row) : null;
  }

  /** The newest job of a submission key. */
  jobByKey(key: string): StoredJob | null {
    const row = this.sql(`SELECT * FROM capability_jobs WHERE key = ? ORDER BY id DESC LIMIT 1`).get(key) as Row | undefined;
    return row ? jobOf(row) : null;
  }

  jobs(limit: number): StoredJob[] {
    return (this.sql(`SELECT * FROM capability_jobs ORDER BY id DESC LIMIT ?`).all(limit) as Row[]).map(jobOf);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private sql(text: string): BetterSqlite3.Statement {
    let prepared = this.statements.get(text);
    if (!prepared) this.statements.set(text, (prepared = this.db.prepare(text)));
    return prepared;
  }
}

function chunkOf(row: Row): StoredChunk {
  const blob = row.vector as Buffer;
  const vector = new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
  return {
    source: String(row.source),
    chunk: Number(row.chunk),
    text: String(row.text),
    hash: String(row.hash),
    page: row.page === null ? null : Number(row.page),
    heading: (row.heading as string | null) ?? null,
    vector,
  };
}

function jobOf(row: Row): StoredJob {
  return {
    id: Number(row.id),
    key: String(row.key),
    capability: String(row.capability),
    route: String(row.route),
    model: String(row.model),
    status: row.status as StoredJob["status"],
    provider_job_id: (row.provider_job_id as string | null) ?? null,
    origin: (row.origin as string | null) ?? null,
    artifact_name: String(row.artifact_name),
    artifact: (row.artifact as string | null) ?? null,
    created_at: String(row.created_at),
  };
}
