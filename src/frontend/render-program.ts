// The rewritten program (SPEC §3.1): every block replaced by its runtime call on the same lines,
// sync or awaited as the block's scope says, with the windows of top-level statements grouped
// where a block crosses from one into the next. analyze.ts renders, confirms and, as a last
// resort, renders the whole file as one statement block.
//
// The search leaves a program's `await` before a block as Python (SPEC §4.3), and the compile
// oracle cannot object: CPython rejects `await` outside `async def` only after parsing. Where the
// scope shows that it cannot compile (a plain `def`, a lambda, module or class level), the block
// takes the `await` with it, as natural language.

import { blockScopes, type BlockScope } from "./scopes.js";
import { applyReplacements, callText, type Replacement } from "./render.js";
import { scan } from "./scanner.js";
import { trimmed, type FoundBlock, type SearchResult } from "./search.js";

export interface Group {
  /** Original offsets. */
  start: number;
  end: number;
  /** Offsets in the rewritten text. */
  newStart: number;
  newEnd: number;
  verified?: boolean;
  /** Indexes into the rendering's blocks. */
  blocks: number[];
}

export interface Rendering {
  text: string;
  blocks: FoundBlock[];
  /** Original spans and the calls that replace them, in order. */
  replacements: Replacement[];
  /** Each call's span in the rewritten text. */
  calls: { start: number; end: number; kind: FoundBlock["kind"] }[];
  scopes: BlockScope[];
  groups: Group[];
}

/**
 * The rewritten program. Each block's scope (sync or async call) is read from the placeholder
 * program, one window group at a time (a block's scope never reaches outside its top-level
 * statement), then the final calls are rendered.
 */
export function renderProgram(source: string, blocks: FoundBlock[], windows: SearchResult["windows"], runtimeName: string): Rendering {
  const sync = blocks.map((b, i) => ({ start: b.start, end: b.end, text: callText(source.slice(b.start, b.end), runtimeName, i + 1, false) }));
  const placeholder = applyReplacements(source, sync);
  const groups = groupWindows(windows, blocks);
  const scopes: BlockScope[] = blocks.map(() => ({ isAsync: false, awaitAllowed: false, function: null }));
  const shiftBefore = shifts(sync);
  for (const g of groups) {
    if (g.blocks.length === 0) continue;
    const from = g.start + shiftBefore(g.start);
    const to = g.end + shiftBefore(g.end);
    const found = blockScopes(
      scan(placeholder.text.slice(from, to)),
      g.blocks.map((i) => placeholder.starts[i] - from),
    );
    for (const [k, i] of g.blocks.entries()) scopes[i] = found[k];
  }
  const own = blocks.map((b, i) => (scopes[i].awaitAllowed ? b : withAwait(source, b)));
  const replacements = own.map((b, i) =>
    scopes[i].isAsync || b !== blocks[i] ? { start: b.start, end: b.end, text: callText(source.slice(b.start, b.end), runtimeName, i + 1, scopes[i].isAsync) } : sync[i],
  );
  const final = applyReplacements(source, replacements);
  const shiftFinal = shifts(replacements);
  for (const g of groups) {
    g.newStart = g.start + shiftFinal(g.start);
    g.newEnd = g.end + shiftFinal(g.end);
  }
  return {
    text: final.text,
    blocks: own,
    replacements,
    calls: own.map((b, i) => ({ start: final.starts[i], end: final.starts[i] + replacements[i].text.length, kind: b.kind })),
    scopes,
    groups,
  };
}

/** `await` and the blanks before an expression block on its line, if any. */
const AWAIT_BEFORE = /(?<![\p{ID_Continue}])await[ \t]+$/u;

function withAwait(source: string, b: FoundBlock): FoundBlock {
  if (b.kind !== "expression") return b;
  const before = AWAIT_BEFORE.exec(source.slice(Math.max(0, b.start - 80), b.start));
  return before ? { ...b, start: b.start - before[0].length } : b;
}

/** Consecutive windows, joined where a block crosses from one into the next. */
function groupWindows(windows: SearchResult["windows"], blocks: FoundBlock[]): Group[] {
  const groups: Group[] = [];
  let b = 0;
  for (const w of windows) {
    const last = groups[groups.length - 1];
    const crossing = last?.blocks.some((i) => blocks[i].end > last.end);
    const g: Group = crossing ? last : { start: w.start, end: w.end, newStart: w.start, newEnd: w.end, verified: true, blocks: [] };
    if (crossing) g.end = w.end;
    else groups.push(g);
    g.verified = (g.verified ?? true) && w.verified;
    while (b < blocks.length && blocks[b].start < g.end) g.blocks.push(b++);
  }
  return groups;
}

/** For an original offset outside every replacement: how far the text after it has moved. */
function shifts(replacements: Replacement[]): (offset: number) => number {
  const ends = replacements.map((r) => r.end);
  const cumulative: number[] = [];
  let total = 0;
  for (const r of replacements) {
    total += r.text.length - (r.end - r.start);
    cumulative.push(total);
  }
  return (offset) => {
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : cumulative[lo - 1];
  };
}

export function wholeFileBlock(source: string): FoundBlock[] {
  const sc = scan(source, { tokens: false });
  if (sc.lines.length === 0) return [];
  const first = sc.lines[0];
  const start = first.indent > 0 ? first.lineStart : first.start;
  const end = sc.lines[sc.lines.length - 1].end;
  // Anything but blank and comment lines outside the logical lines goes into the block too: a `\`
  // continuation opening the file (CPython joins it to an indented first line: "unexpected
  // indent") or ending it ("unexpected EOF while parsing").
  const stray = (text: string) => /\S/.test(text.replace(/^[ \t]*#.*$/gm, ""));
  return [trimmed(source, { start: stray(source.slice(0, start)) ? 0 : start, end: stray(source.slice(end)) ? source.length : end, kind: "statement" })];
}
