// Rows the journal stores and returns (SPEC §11). Plain data; journal.ts maps them to SQL.

export interface RunStart {
  /** How the program was named: a script path, "-m module", "-c" (never the code) or "-". */
  script: string;
  args: readonly string[];
  replay: boolean;
  pid: number;
  version: string;
  startedAt: Date;
}

export interface RunEnd {
  endedAt: Date;
  status: number | null;
  signal: string | null;
  totalSeconds: number;
  parseSeconds: number;
  prepareSeconds: number;
  executionSeconds: number;
}

/** The counters of one invocation: the neutral type of src/invocation-record.ts. */
export type { InvocationStats } from "../invocation-record.js";
import type { InvocationStats } from "../invocation-record.js";

export interface InvocationEntry {
  /** The invocation's id within its run, e.g. "inv-3". */
  invocation: string;
  /** Relative to the project root when inside it. */
  file: string;
  line: number;
  mode: "syntax" | "recovery";
  status: "finished" | "failed";
  action: string | null;
  missingCapability: string | null;
  counters: InvocationStats;
  /** SPEC §10: the invocation's capability calls, when it ran any. */
  capabilities?: { calls: number; cached: number; replayed: number; counts: Record<string, number>; cost_usd: number | null } | null;
  endedAt: Date;
}

export interface StoredExchange {
  key: string;
  /** "file:line" of the block the request is about (the stable message's location), or null. */
  block?: string | null;
  route: string;
  model: string;
  requestJson: string;
  responseJson: string;
  /** The run that recorded it and when (ISO 8601); read back by `exchangesOfBlock` only. */
  runId?: number | null;
  recordedAt?: string;
}

export interface RunSummary {
  id: number;
  startedAt: string;
  endedAt: string | null;
  script: string;
  replay: boolean;
  exitStatus: number | null;
  exitSignal: string | null;
  invocations: number;
  modelCalls: number;
  replayed: number;
  toolCalls: number;
  requestBytes: number;
  totalTokens: number;
  /** USD of the run's requests (SPEC §13); null when some invocation's cost is unknown. */
  costUsd: number | null;
  /** Routes without a price that requests of this run went to. */
  unpricedRoutes: string[];
  totalSeconds: number | null;
  parseSeconds: number | null;
  prepareSeconds: number | null;
  executionSeconds: number | null;
}

export interface InvocationSummary extends Omit<InvocationEntry, "endedAt"> {
  endedAt: string;
}
