// How a run differs from python3's: the first differing line of stdout and of stderr (after
// normalise.ts), the exit status, a timeout, and the files left in the project folder that
// python3's run did not leave (or left and this run did not).
//
// One leftover is accepted: the preparation cache (SPEC §4.1), `.aiython/cache/` with the
// `.aiython/.gitignore` that comes with the folder. It is aiython's `__pycache__`: a configured
// run stores each source it prepared there, as python3 stores the bytecode of what it imported
// (-B and PYTHONDONTWRITEBYTECODE keep `__pycache__` out, not this folder: SPEC §4.1).
// Anything else under `.aiython/` (the journal) still counts as a difference.

import { normalise } from "./normalise.js";
import type { Run } from "./run-mode.js";

export type Difference =
  | { kind: "timeout"; seconds: number }
  | { kind: "line"; stream: "stdout" | "stderr"; line: number; ours: string | null; theirs: string | null }
  | { kind: "exit"; ours: string; theirs: string }
  | { kind: "files"; extra: string[]; missing: string[] };

/** `ours` against `theirs` (python3's run). Empty when they are the same. */
export function compareRuns(ours: Run, theirs: Run, timeoutSeconds: number): Difference[] {
  if (ours.timedOut) return [{ kind: "timeout", seconds: timeoutSeconds }];
  const found: Difference[] = [];
  for (const stream of ["stdout", "stderr"] as const) {
    const line = firstDifferingLine(normalise(ours[stream]), normalise(theirs[stream]));
    if (line) found.push({ kind: "line", stream, ...line });
  }
  if (ours.exit !== theirs.exit) found.push({ kind: "exit", ours: ours.exit, theirs: theirs.exit });
  const extra = outermost(withoutPreparationCache(ours.left).filter((f) => !theirs.left.includes(f)));
  const missing = outermost(theirs.left.filter((f) => !ours.left.includes(f)));
  if (extra.length || missing.length) found.push({ kind: "files", extra, missing });
  return found;
}

/** 1-based line number and both lines (null past the end) of the first difference, if any. */
function firstDifferingLine(ours: string, theirs: string): { line: number; ours: string | null; theirs: string | null } | null {
  if (ours === theirs) return null;
  const a = ours.split("\n");
  const b = theirs.split("\n");
  for (let i = 0; ; i++) {
    if (a[i] !== b[i]) return { line: i + 1, ours: a[i] ?? null, theirs: b[i] ?? null };
  }
}

/** Paths without those inside a folder that is itself in the list. */
function outermost(paths: string[]): string[] {
  const folders = paths.filter((p) => p.endsWith("/"));
  return paths.filter((p) => !folders.some((folder) => folder !== p && p.startsWith(folder)));
}

const STATE = ".aiython/";
const CACHE = ".aiython/cache/";

/** `left` without the preparation cache, and without `.aiython/` itself when it held only that. */
export function withoutPreparationCache(left: string[]): string[] {
  const rest = left.filter((f) => !f.startsWith(CACHE) && f !== `${STATE}.gitignore`);
  return rest.some((f) => f.startsWith(STATE) && f !== STATE) ? rest : rest.filter((f) => f !== STATE);
}
