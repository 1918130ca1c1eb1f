// Windows: runs of complete top-level statements that CPython can judge on their own.
//
// A window starts where a top-level statement starts (column 0, not an `else:`/`elif`/`except`/
// `finally` clause, not right after a decorator) and ends where the next window starts. Checking
// windows instead of the whole file keeps each compile small (SPEC §12: a 1 MB file must plan in
// 1.0 s), and it is faithful: a window that compiles ends with no bracket, string or block open,
// so the next one starts in the same state it has in the whole file. A window whose first error
// lies past its last statement needs what follows it (the search then merges it with the next
// window), and the final whole-file compile of the rewritten program confirms everything.

import { scan, type Scan } from "./scanner.js";

export interface Window {
  /** Offsets into the source: start of a line, and the start of the next window (or the end). */
  start: number;
  end: number;
}

const CLAUSE_KEYWORDS = new Set(["else", "elif", "except", "finally"]);

/** Offsets of the lines that begin a top-level statement, in order; always starts with 0. */
export function topLevelStarts(scan: Scan): number[] {
  const starts = [0];
  const { lines } = scan;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.indent !== 0 || line.lineStart === 0) continue;
    if (CLAUSE_KEYWORDS.has(line.head)) continue;
    const previous = i > 0 ? lines[i - 1] : undefined;
    if (previous && previous.indent === 0 && previous.head === "@") continue;
    starts.push(line.lineStart);
  }
  return starts;
}

/** Groups top-level statements into windows of at least `target` characters (except the last). */
export function chunkWindows(length: number, starts: number[], target: number, from = 0): Window[] {
  const windows: Window[] = [];
  let begin = -1;
  for (const start of starts) {
    if (start < from) continue;
    if (begin < 0) begin = start;
    else if (start - begin >= target) {
      windows.push({ start: begin, end: start });
      begin = start;
    }
  }
  if (begin < 0) begin = from;
  if (begin < length || windows.length === 0) windows.push({ start: begin, end: length });
  return windows;
}

/** Characters of top-level statements per window. */
export const WINDOW_TARGET = 2048;

/**
 * Characters of groups of whole windows that typing.ts parses between two yields (and, on a large
 * source, two collections of the trees it dropped).
 */
export const PARSE_CHUNK = 64 * 1024;

/** The windows of a source, from a scan that keeps no tokens. */
export function planWindows(source: string, target = WINDOW_TARGET): Window[] {
  return chunkWindows(source.length, topLevelStarts(scan(source, { tokens: false })), target);
}
