// Rendering blocks as runtime calls (SPEC §3.1, §4.3). A block spanning N lines renders in the
// same N lines, so every line number of the rewritten program is the original's; a one-line call
// is padded inside its parentheses to the block's width, so the code after it keeps its columns
// and CPython's traceback carets fall under the block's text. Shapes (the bridge implements them):
//   NAME.block(N)              sync code
//   (await NAME.ablock(N))()   inside `async def` bodies, so the event loop is not blocked; the
//                              awaited call returns a call that gives the value or raises the
//                              block's exception in the program's own frame
// A statement block is the same call as an expression statement at the statement's position. The
// operand of the program's own `await` is rendered like any block, so in `async def` the program
// reads `await (await NAME.ablock(N))()`: the inner await is the runtime's, the outer the program's.

import { countCodePoints } from "./positions.js";

const BREAK = /\r\n|\r|\n/g;

/** The call that replaces `blockText`; `index` 0 is the placeholder the search compiles. */
export function callText(blockText: string, runtimeName: string, index: number, isAsync: boolean): string {
  const open = isAsync ? `(await ${runtimeName}.ablock(${index}` : `${runtimeName}.block(${index}`;
  const close = isAsync ? "))()" : ")";
  const breaks = blockText.match(BREAK) ?? [];
  if (breaks.length === 0) {
    const width = countCodePoints(blockText, 0, blockText.length);
    return open + " ".repeat(Math.max(0, width - open.length - close.length)) + close;
  }
  const lastBreak = Math.max(blockText.lastIndexOf("\n"), blockText.lastIndexOf("\r"));
  const lastWidth = countCodePoints(blockText, lastBreak + 1, blockText.length);
  return open + breaks.join("") + " ".repeat(Math.max(0, lastWidth - close.length)) + close;
}

export function placeholderCall(blockText: string, runtimeName: string): string {
  return callText(blockText, runtimeName, 0, false);
}

/** The name the rewritten program uses for the runtime: one that occurs nowhere in the source. */
export function chooseRuntimeName(source: string): string {
  if (!source.includes("__aiython__")) return "__aiython__";
  for (let n = 1; ; n++) {
    const name = `__aiython_${n}__`;
    if (!source.includes(name)) return name;
  }
}

export interface Replacement {
  /** Offsets into the original text. */
  start: number;
  end: number;
  /** The text that takes its place. */
  text: string;
}

/** The text with `replacements` (sorted, non-overlapping) applied, and where each one now starts. */
export function applyReplacements(source: string, replacements: Replacement[]): { text: string; starts: number[] } {
  const parts: string[] = [];
  const starts: number[] = [];
  let at = 0;
  let length = 0;
  for (const r of replacements) {
    const before = source.slice(at, r.start);
    parts.push(before, r.text);
    length += before.length;
    starts.push(length);
    length += r.text.length;
    at = r.end;
  }
  parts.push(source.slice(at));
  return { text: parts.join(""), starts };
}

/** Maps an offset of the rewritten text to the original; inside a call, to the block's start or end. */
export type OffsetMap = (offset: number, bias: "start" | "end") => number;

export function offsetMap(replacements: Replacement[]): OffsetMap {
  const rows: { newStart: number; newEnd: number; start: number; end: number; shift: number }[] = [];
  let shift = 0;
  for (const r of replacements) {
    const newStart = r.start + shift;
    const newEnd = newStart + r.text.length;
    shift += r.text.length - (r.end - r.start);
    rows.push({ newStart, newEnd, start: r.start, end: r.end, shift });
  }
  return (offset, bias) => {
    let lo = 0;
    let hi = rows.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid].newStart < offset) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) return offset;
    const row = rows[found];
    if (offset < row.newEnd) return bias === "start" ? row.start : row.end;
    return offset - row.shift;
  };
}
