// Shapes only the observers use. Invocation records and trace events are the neutral ones of
// src/invocation-record.ts; run timings come from run-clock.ts.

export type { RunTimings } from "./run-clock.js";

import type { EndedHow } from "../journal/index.js";

export interface RunExit {
  status: number | null;
  signal: string | null;
  /** Whether the program ended the run itself, or how it was cut short (SPEC §11.2). */
  how: EndedHow;
}
