// Rows the journal stores and returns (SPEC §11). Plain data; the *-log.ts files map them to SQL.

/** What kind of run (SPEC §11.1–§11.3): recorded live, replayed (strictly, or filling what it lacks), resumed, rechecked. */
export type RunMode = "record" | "replay" | "fill" | "resume" | "recheck";

/**
 * How a run ended: the program's own exit (its status, SPEC §11.2's "normal end"), or one of the
 * ways a run is cut short. A run whose row has no end never recorded one (SIGKILL, a host crash).
 */
export type EndedHow = "exit" | "signal" | "time_limit" | "budget" | "internal" | "lost" | "batch_wait";

export interface RunStart {
  /** How the program was named: a script path, "-m module", "-c" (never the code) or "-". */
  script: string;
  /** The program's own arguments (kept as a hash and a count). */
  args: readonly string[];
  mode: RunMode;
  /** aiython's whole command line, keys redacted (resume re-runs it); null when it cannot be kept. */
  argv: readonly string[] | null;
  /** Hash of what makes two runs "the same command line" (the default source of --replay). */
  commandKey: string | null;
  /** The working folder, relative to the project root when inside it. */
  cwd: string | null;
  interpreter: { executable: string; version: string } | null;
  profile: { name: string; route: string | null; model: string | null } | null;
  /** The run --replay answered from; resume's run. */
  sourceRun: number | null;
  resumedFrom: number | null;
  pid: number;
  version: string;
  startedAt: Date;
}

export interface RunEnd {
  endedAt: Date;
  status: number | null;
  signal: string | null;
  how: EndedHow;
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

/** One answer of a run, in its order (SPEC §11): recorded now, or replayed from an earlier row (`sameAs`). */
export interface ExchangeEntry {
  seq: number;
  key: string;
  occurrence: number;
  /** The invocation ("inv-3") and round (1, 2, …) it belongs to, when known. */
  invocation: string | null;
  round: number | null;
  /** "file:line" of the block the request is about (the stable message's location), or null. */
  block: string | null;
  route: string;
  model: string;
  answer: { requestJson: string; responseJson: string } | { sameAs: number };
}

/** A recorded answer found for a request: the row that matched (its id, run and place), the row holding the text, and the text. */
export interface FoundAnswer {
  id: number;
  runId: number | null;
  seq: number;
  origin: number;
  responseJson: string;
}

/** A recorded request about a block, for a --replay miss's nearest request. */
export interface StoredRequest {
  requestJson: string;
  runId: number | null;
  /** ISO 8601. */
  recordedAt: string;
}

/** A tool call with effects (SPEC §11.2): started, ended, or reported uncertain and not run. */
export interface EffectEntry {
  /** The answer, in this run's order, that asked for it. */
  exchangeSeq: number;
  callId: string;
  tool: string;
  block: string | null;
}

export interface EffectSummary extends EffectEntry {
  status: "started" | "ended" | "uncertain";
  startedAt: string;
  endedAt: string | null;
}

export interface RunSummary {
  id: number;
  startedAt: string;
  endedAt: string | null;
  script: string;
  replay: boolean;
  mode: RunMode;
  /** SPEC §11.1–§11.2, named as SPEC names them in `runs list|show --json`. */
  source_run: number | null;
  resumed_from: number | null;
  ended_how: EndedHow | null;
  command_line: string[] | null;
  cwd: string | null;
  interpreter: { executable: string; version: string } | null;
  profile: { name: string; route: string | null; model: string | null } | null;
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

/** What resume and recheck need of a recorded run besides its summary. */
export interface RunRecord extends RunSummary {
  pid: number;
  commandKey: string | null;
  /** The digests of the entry and the project modules it imported, by project-relative path. */
  files: { path: string; sha256: string }[];
}

export interface InvocationSummary extends Omit<InvocationEntry, "endedAt"> {
  endedAt: string;
}
