// What the capabilities keep in the project's SQLite (SPEC §10, §11), as an interface:
// src/journal/capability-store.ts implements it (the journal owns SQLite), and run/ hands it in.
// Service results serve both the 24 h cache (any stored result younger than the TTL) and
// `--replay` (results stored while the journal records, at any age); vectors of local indexes;
// long jobs. All calls are synchronous (SQLite in process); opening is the caller's async step.

import type { JobSummary } from "../capability-port.js";

/** One stored provider answer: its JSON part and, for media, its bytes. */
export interface StoredResult {
  json: string;
  blob: Buffer | null;
  /** ms since the epoch. */
  storedAt: number;
}

export interface ResultEntry {
  key: string;
  capability: string;
  route: string;
  json: string;
  blob: Buffer | null;
  /** Kept for `--replay` beyond the cache's 24 h. */
  journaled: boolean;
}

export interface IndexedChunk {
  source: string;
  chunk: number;
  text: string;
  /** SHA-256 of the text: unchanged chunks keep their vectors when a source is indexed again. */
  hash: string;
  page: number | null;
  heading: string | null;
  vector: Float32Array;
}

export type JobStatus = JobSummary["status"];

export interface JobRow extends JobSummary {
  /** The service key of the submission (its fingerprint): the same step never submits twice. */
  key: string;
  model: string;
  provider_job_id: string | null;
  /** The artifact name chosen at submission, so a resumed job writes the same file. */
  artifact_name: string;
}

export interface CapabilityStore {
  findResult(key: string): StoredResult | null;
  putResult(entry: ResultEntry): void;
  /** Removes cache-only results older than `maxAgeMs` (journaled ones stay for --replay). */
  pruneResults(maxAgeMs: number): void;

  /** Chunks of one source of an index, as stored (vectors included). */
  chunksOf(index: string, model: string, source: string): IndexedChunk[];
  /** Replaces one source's chunks. */
  putSource(index: string, model: string, source: string, chunks: IndexedChunk[]): void;
  removeSource(index: string, model: string, source: string): void;
  sourcesOf(index: string, model: string): string[];
  allChunks(index: string, model: string): IndexedChunk[];
  /** The embedding models an index has vectors for. */
  modelsOf(index: string): string[];

  createJob(job: Omit<JobRow, "id" | "created_at" | "artifact">): number;
  updateJob(id: number, patch: Partial<Pick<JobRow, "status" | "provider_job_id" | "artifact">>): void;
  job(id: number): JobRow | null;
  jobByKey(key: string): JobRow | null;
  jobs(limit: number): JobRow[];
}

/** Opens the store lazily; null when the project's SQLite cannot be used (the reason was reported). */
export type StoreOpener = () => Promise<CapabilityStore | null>;
