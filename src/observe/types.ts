// Shapes the observers read. They mirror the run's own types structurally — an invocation record
// (src/invocation-wiring.ts), trace events (src/recovery/ports.ts) — so src/capabilities never
// imports src/recovery (dependencies point one way, STYLE "layout"). Keep them in step.

import type { InvocationCounters } from "../journal/index.js";

export type { InvocationCounters };

export interface ObservedInvocation {
  /** Id within the run, e.g. "inv-2". */
  id: string;
  /** As the bridge reports it (an absolute path for a file). */
  filename: string;
  line: number;
  mode: "syntax" | "recovery";
  stats: InvocationCounters;
  end: { status: "finished"; action?: string } | { status: "failed"; reason: string; missing_capability?: string };
}

/** Any trace event: a tagged object with the invocation id and a timestamp (ms since epoch). */
export interface TraceEventLike {
  type: string;
  invocation: string;
  at: number;
}

export type { RunTimings } from "./run-clock.js";

export interface RunExit {
  status: number | null;
  signal: string | null;
}
