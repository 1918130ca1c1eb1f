// Shapes only the observers use. Invocation records and trace events are the neutral ones of
// src/invocation-record.ts; run timings come from run-clock.ts.

export type { RunTimings } from "./run-clock.js";

export interface RunExit {
  status: number | null;
  signal: string | null;
}
