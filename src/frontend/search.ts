// Block search (SPEC §3.1): which spans of a source CPython cannot parse become AI blocks.
//
// 1. The source is cut into windows of complete top-level statements (windows.ts) and every
//    window is compiled in one oracle batch. A source whose windows all compile is valid: no
//    search runs and there are no blocks.
// 2. Each failing window is searched on its own, all of them in the same rounds so that each
//    round is one oracle batch: take the window's first CPython error, list candidate spans around
//    it, smallest first (candidates.ts), replace each by a runtime call, and accept the first that
//    makes the window compile or moves its first error past the candidate. The first error then
//    strictly advances through the window (the progress measure); a per-window round cap and the
//    last candidate, the whole window as one statement block, end every search.
// 3. A window whose first error lies past its last statement needs the text after it: it is merged
//    with the next window. An error that runs to the end (an unclosed bracket or triple-quoted
//    string) could also mean a window boundary was misplaced inside valid code, so the first time
//    one appears the whole source is compiled once: if it compiles, it is valid.
// The caller confirms the final rewritten program with one whole-file compile and, if that ever
// fails, runs this search again over the whole file as one window (`wholeFile: true`).

import type { CompileError, CompileOracle } from "./oracle.js";
import type { BlockKind } from "./plan.js";
import { LineIndex } from "./positions.js";
import { scan, type Scan } from "./scanner.js";
import { candidatesAt } from "./candidates.js";
import { placeholderCall } from "./render.js";
import { chunkWindows, topLevelStarts, type Window } from "./windows.js";

/** A block as a span of the original source (UTF-16 offsets). */
export interface FoundBlock {
  start: number;
  end: number;
  kind: BlockKind;
}

export interface SearchResult {
  blocks: FoundBlock[];
  /** Oracle items compiled, for the benchmarks. */
  compiles: number;
}

export interface SearchArgs {
  source: string;
  filename: string;
  oracle: CompileOracle;
  runtimeName: string;
  /** Search the whole source as one window (the fallback after a failed confirmation). */
  wholeFile?: boolean;
}

/** Characters of top-level statements per window in the first batch. */
export const WINDOW_TARGET = 4096;
const RUN_OFF = /^('.' was never closed|unterminated triple-quoted string|unexpected EOF)/;
const INDENTATION = /^(unexpected indent|expected an indented block|unindent does not match)/;

interface Segment {
  curStart: number;
  curEnd: number;
  origStart: number;
  origEnd: number;
}

interface Rendered {
  text: string;
  segments: Segment[];
}

interface WindowState {
  start: number;
  end: number;
  blocks: FoundBlock[];
  rendered: Rendered;
  /** null: compiles; "unknown": must be compiled again. */
  error: CompileError | null | "unknown";
  rounds: number;
  maxRounds: number;
}

type Request =
  | { kind: "recheck"; window: WindowState }
  | { kind: "candidates"; window: WindowState; pOrig: number; options: { block: FoundBlock; blocks: FoundBlock[]; rendered: Rendered }[] };

export async function findBlocks(args: SearchArgs): Promise<SearchResult> {
  return new Search(args).run();
}

class Search {
  private readonly source: string;
  private readonly index: LineIndex;
  private compiles = 0;
  private checkedWholeFile = false;

  constructor(private readonly args: SearchArgs) {
    this.source = args.source;
    this.index = new LineIndex(args.source);
  }

  async run(): Promise<SearchResult> {
    const source = this.source;
    const ranges: Window[] = this.args.wholeFile
      ? [{ start: 0, end: source.length }]
      : chunkWindows(source.length, topLevelStarts(scan(source)), WINDOW_TARGET);
    let windows = ranges.map((w) => this.newWindow(w.start, w.end, []));
    const verdicts = await this.check(windows.map((w) => w.rendered.text));
    windows.forEach((w, i) => {
      const v = verdicts[i];
      w.error = v.ok ? null : v.error;
    });
    if (windows.every((w) => w.error === null)) return { blocks: [], compiles: this.compiles };

    for (let guard = 0; guard < 100_000; guard++) {
      windows = await this.mergeWhereNeeded(windows);
      if (windows.length === 0) return { blocks: [], compiles: this.compiles };
      const active = windows.filter((w) => w.error !== null);
      if (active.length === 0) break;
      const requests = active.map((w) => this.request(w));
      const items: string[] = [];
      for (const r of requests) {
        if (r.kind === "recheck") items.push(r.window.rendered.text);
        else for (const o of r.options) items.push(o.rendered.text);
      }
      const results = await this.check(items);
      let k = 0;
      for (const r of requests) {
        if (r.kind === "recheck") {
          const v = results[k++];
          r.window.error = v.ok ? null : v.error;
          continue;
        }
        const verdicts = results.slice(k, k + r.options.length);
        k += r.options.length;
        this.accept(r, verdicts);
      }
    }
    const blocks = windows.flatMap((w) => w.blocks).sort((a, b) => a.start - b.start);
    return { blocks, compiles: this.compiles };
  }

  private async check(texts: string[]): Promise<Awaited<ReturnType<CompileOracle["check"]>>> {
    this.compiles += texts.length;
    return this.args.oracle.check(texts.map((source) => ({ source, filename: this.args.filename })));
  }

  private newWindow(start: number, end: number, blocks: FoundBlock[]): WindowState {
    const rendered = this.render(start, end, blocks);
    const lines = scan(this.source.slice(start, end)).lines.length;
    return { start, end, blocks, rendered, error: "unknown", rounds: 0, maxRounds: 2 * lines + 8 };
  }

  /** Merges windows whose first error needs the text after them; guards against misplaced boundaries. */
  private async mergeWhereNeeded(windows: WindowState[]): Promise<WindowState[]> {
    const out: WindowState[] = [];
    for (let i = 0; i < windows.length; i++) {
      let w = windows[i];
      while (w.error !== null && w.error !== "unknown" && i + 1 < windows.length) {
        const error = w.error;
        if (!this.pastContent(w, error)) {
          if (RUN_OFF.test(error.message) && !this.checkedWholeFile) {
            this.checkedWholeFile = true;
            const [whole] = await this.check([this.source]);
            if (whole.ok) return [];
          }
          break;
        }
        const next = windows[++i];
        w = this.newWindow(w.start, next.end, [...w.blocks, ...next.blocks]);
      }
      out.push(w);
    }
    return out;
  }

  private pastContent(w: WindowState, error: CompileError): boolean {
    const sc = scan(w.rendered.text);
    if (sc.lines.length === 0) return true;
    const lastLine = new LineIndex(w.rendered.text).lineOf(sc.lines[sc.lines.length - 1].end);
    return error.line > lastLine;
  }

  private request(w: WindowState): Request {
    if (w.error === "unknown") return { kind: "recheck", window: w };
    const error = w.error as CompileError;
    const text = w.rendered.text;
    const local = new LineIndex(text);
    const pCur = local.offset(error.line, error.column);
    const pOrig = this.toOriginal(w, w.rendered, pCur, "start");
    w.rounds++;
    if (w.rounds > w.maxRounds + 2) {
      // Give up on this window; the whole-file confirmation of the caller catches it.
      w.error = null;
      return { kind: "candidates", window: w, pOrig, options: [] };
    }
    const seen = new Set<string>();
    const options: { block: FoundBlock; blocks: FoundBlock[]; rendered: Rendered }[] = [];
    const whole = this.wholeWindowBlock(w);
    const candidates = w.rounds > w.maxRounds ? [] : candidatesAt(scan(text), pCur, error.message);
    for (const c of candidates) {
      const start = this.toOriginal(w, w.rendered, c.start, "start");
      const end = this.toOriginal(w, w.rendered, c.end, "end");
      if (end <= start || seen.has(`${start}:${end}`)) continue;
      seen.add(`${start}:${end}`);
      options.push(this.option(w, { start, end, kind: c.kind }));
    }
    if (whole && !seen.has(`${whole.start}:${whole.end}`)) options.push(this.option(w, whole));
    return { kind: "candidates", window: w, pOrig, options };
  }

  private option(w: WindowState, block: FoundBlock): { block: FoundBlock; blocks: FoundBlock[]; rendered: Rendered } {
    const blocks = w.blocks.filter((b) => b.end <= block.start || b.start >= block.end);
    blocks.push(block);
    blocks.sort((a, b) => a.start - b.start);
    return { block, blocks, rendered: this.render(w.start, w.end, blocks) };
  }

  private accept(r: Extract<Request, { kind: "candidates" }>, verdicts: Awaited<ReturnType<CompileOracle["check"]>>): void {
    const w = r.window;
    if (r.options.length === 0) return;
    for (let i = 0; i < r.options.length; i++) {
      const option = r.options[i];
      const v = verdicts[i];
      let error: CompileError | null = null;
      if (!v.ok) {
        error = v.error;
        const local = new LineIndex(option.rendered.text);
        const eOrig = this.toOriginal(w, option.rendered, local.offset(error.line, error.column), "start");
        if (!(eOrig > r.pOrig && eOrig >= option.block.end)) continue;
        if (INDENTATION.test(error.message) && this.index.lineOf(eOrig) <= this.nextCodeLine(option.block.end)) continue;
      }
      w.blocks = option.blocks;
      w.rendered = option.rendered;
      w.error = error;
      return;
    }
    // Nothing moved the error (only possible past the round cap): the window becomes one block.
    const whole = this.wholeWindowBlock(w);
    w.blocks = whole ? [whole] : [];
    w.rendered = this.render(w.start, w.end, w.blocks);
    w.error = "unknown";
    w.maxRounds = 0;
  }

  /** The window's statements as one statement block (never empty when the window has code). */
  private wholeWindowBlock(w: WindowState): FoundBlock | null {
    const sc = scan(this.source.slice(w.start, w.end));
    if (sc.lines.length === 0) return null;
    const first = sc.lines[0];
    // An indented first line at the very start of the file: the block starts at column 0.
    const start = w.start === 0 && first.indent > 0 ? first.lineStart : first.start;
    return { start: w.start + start, end: w.start + sc.lines[sc.lines.length - 1].end, kind: "statement" };
  }

  /** First line after `offset`'s line that holds something other than blanks or a comment. */
  private nextCodeLine(offset: number): number {
    const index = this.index;
    let line = index.lineOf(offset) + 1;
    while (line <= index.lineCount && /^\s*(#.*)?$/.test(index.lineText(line))) line++;
    return line;
  }

  private render(start: number, end: number, blocks: FoundBlock[]): Rendered {
    const source = this.source;
    const parts: string[] = [];
    const segments: Segment[] = [];
    let at = start;
    let cur = 0;
    for (const b of blocks) {
      const before = source.slice(at, b.start);
      parts.push(before);
      cur += before.length;
      const call = placeholderCall(source.slice(b.start, b.end), this.args.runtimeName);
      parts.push(call);
      segments.push({ curStart: cur, curEnd: cur + call.length, origStart: b.start, origEnd: b.end });
      cur += call.length;
      at = b.end;
    }
    parts.push(source.slice(at, end));
    return { text: parts.join(""), segments };
  }

  private toOriginal(w: WindowState, r: Rendered, cur: number, bias: "start" | "end"): number {
    let growth = 0;
    for (const s of r.segments) {
      if (cur <= s.curStart) break;
      if (cur < s.curEnd) return bias === "start" ? s.origStart : s.origEnd;
      growth += s.curEnd - s.curStart - (s.origEnd - s.origStart);
    }
    return w.start + cur - growth;
  }
}
