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

export interface InvocationStats {
  model_calls: number;
  tool_calls: number;
  tool_counts: Record<string, number>;
  request_bytes: number;
  token_usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cached_tokens: number };
  invalid_batches: number;
  empty_responses: number;
  tool_failures: number;
  provider_seconds: number;
  invocation_seconds: number;
}

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
  route: string;
  model: string;
  requestJson: string;
  responseJson: string;
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
  toolCalls: number;
  requestBytes: number;
  totalTokens: number;
  totalSeconds: number | null;
  parseSeconds: number | null;
  prepareSeconds: number | null;
  executionSeconds: number | null;
}

export interface InvocationSummary extends Omit<InvocationEntry, "endedAt"> {
  endedAt: string;
}
