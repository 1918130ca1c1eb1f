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
// 3. CPython reports a tokenizer error found anywhere later in the text instead of a generic
//    "invalid syntax" (it tokenizes the rest of the source before raising), so a tokenizer error
//    may hide an earlier parse error. The window is then checked only up to the line of that
//    tokenizer error (its *limit*) until that prefix compiles; errors that only say the prefix ends
//    early (past its last statement) count as "compiles".
// 4. A window whose first error lies past its last statement needs the text after it: it is merged
//    with the next window. An error that runs to the end (an unclosed bracket or triple-quoted
//    string) could also mean a window boundary was misplaced inside valid code, so the first time
//    one appears the whole source is compiled once: if it compiles, it is valid.
// The caller confirms the final rewritten program with one whole-file compile and, if that ever
// fails, runs this search again over the whole file as one window (no `windows`).

import type { CompileError, CompileOracle, CompileVerdict } from "./oracle.js";
import { LineIndex } from "./positions.js";
import { scan } from "./scanner.js";
import { candidatesAt } from "./candidates.js";
import type { Window } from "./windows.js";
import { lineIndexOf, pastContent, toOriginal, trimmed, WindowBook, type FoundBlock, type Option, type WindowState } from "./search-windows.js";

export { trimmed, type FoundBlock };

export interface SearchResult {
  blocks: FoundBlock[];
  /**
   * The windows the search ended with (original offsets, in order, covering the source). A
   * verified window compiled as it stands, with its blocks rendered as placeholder calls.
   */
  windows: { start: number; end: number; verified: boolean }[];
  /** Texts compiled by the oracle, for the benchmarks. */
  compiles: number;
}

export interface SearchArgs {
  source: string;
  filename: string;
  oracle: CompileOracle;
  runtimeName: string;
  /** The first windows (windows.ts `planWindows`); the whole source as one window when absent. */
  windows?: Window[];
  /** The source's line index, when the caller has one. */
  index?: LineIndex;
  /** Called when the first windows' compile is answered, with those that compile as they stand (no block is in them). */
  onCompiled?: (windows: { start: number; end: number }[]) => void;
}

const RUN_OFF = /^('.' was never closed|unterminated triple-quoted string|unexpected EOF)/;
/** Candidates sent in the first stage of a search step. */
const FIRST_STAGE = 1;
const INDENTATION = /^(unexpected indent|expected an indented block|unindent does not match)/;

type Request = { kind: "recheck"; window: WindowState } | { kind: "candidates"; window: WindowState; pOrig: number; options: Option[] };

export async function findBlocks(args: SearchArgs): Promise<SearchResult> {
  return new Search(args).run();
}

class Search {
  private readonly source: string;
  private readonly index: LineIndex;
  private readonly book: WindowBook;
  private compiles = 0;
  private checkedWholeFile = false;

  constructor(private readonly args: SearchArgs) {
    this.source = args.source;
    this.index = args.index ?? new LineIndex(args.source);
    this.book = new WindowBook(args.source, this.index, args.runtimeName);
  }
  async run(): Promise<SearchResult> {
    const source = this.source;
    const ranges = this.args.windows ?? [{ start: 0, end: source.length }];
    let windows = ranges.map((w) => this.book.newWindow(w.start, w.end, []));
    const first = await this.check(windows.map((w) => w.rendered.text));
    for (const [i, w] of windows.entries()) this.book.settle(w, first[i]);
    this.args.onCompiled?.(windows.filter((w) => w.verified).map((w) => ({ start: w.start, end: w.end })));
    if (windows.every((w) => w.error === null)) return this.result([]);

    for (let guard = 0; guard < 100_000; guard++) {
      windows = await this.mergeWhereNeeded(windows);
      if (windows.length === 0) return this.result([]);
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
          this.book.settle(r.window, results[k++]);
        } else {
          this.accept(r, results.slice(k, k + r.options.length));
          k += r.options.length;
        }
      }
    }
    return this.result(windows);
  }

  private result(windows: WindowState[]): SearchResult {
    const all = windows.length > 0 ? windows : [{ start: 0, end: this.source.length, verified: true, blocks: [] as FoundBlock[] }];
    return {
      blocks: all.flatMap((w) => w.blocks).sort((a, b) => a.start - b.start),
      windows: all.map((w) => ({ start: w.start, end: w.end, verified: w.verified })),
      compiles: this.compiles,
    };
  }

  private check(texts: string[]): Promise<CompileVerdict[]> {
    this.compiles += texts.length;
    return this.args.oracle.check(texts.map((source) => ({ source, filename: this.args.filename })));
  }

  /** Merges windows whose first error needs the text after them; guards against misplaced boundaries. */
  private async mergeWhereNeeded(windows: WindowState[]): Promise<WindowState[]> {
    const out: WindowState[] = [];
    for (let i = 0; i < windows.length; i++) {
      let w = windows[i];
      while (w.error !== null && w.error !== "unknown" && w.limit === w.end && i + 1 < windows.length) {
        const error = w.error;
        if (!pastContent(w.rendered.text, error)) {
          if (RUN_OFF.test(error.message) && !this.checkedWholeFile) {
            this.checkedWholeFile = true;
            const [whole] = await this.check([this.source]);
            if (whole.ok) return [];
          }
          break;
        }
        const next = windows[++i];
        w = this.book.newWindow(w.start, next.end, [...w.blocks, ...next.blocks]);
      }
      out.push(w);
    }
    return out;
  }

  private request(w: WindowState): Request {
    if (w.error === "unknown") return { kind: "recheck", window: w };
    if (w.later) {
      const { pOrig, options } = w.later;
      w.later = null;
      return { kind: "candidates", window: w, pOrig, options };
    }
    const error = w.error as CompileError;
    const text = w.rendered.text;
    const pCur = lineIndexOf(w.rendered).offset(error.line, error.column);
    const pOrig = toOriginal(w, w.rendered, pCur, "start");
    w.rounds++;
    if (w.rounds > w.maxRounds + 2) {
      // Give up on this window (unverified); the caller's confirmation catches it.
      w.error = null;
      w.verified = false;
      return { kind: "candidates", window: w, pOrig, options: [] };
    }
    const seen = new Set<string>();
    const options: Option[] = [];
    const add = (block: FoundBlock): void => {
      const key = `${block.start}:${block.end}`;
      if (block.end <= block.start || seen.has(key)) return;
      seen.add(key);
      options.push(this.book.option(w, block));
    };
    if (w.rounds <= w.maxRounds) {
      for (const c of candidatesAt(scan(text), pCur, error.message)) {
        add({ start: toOriginal(w, w.rendered, c.start, "start"), end: toOriginal(w, w.rendered, c.end, "end"), kind: c.kind });
      }
    }
    const whole = this.book.wholeWindowBlock(w);
    if (whole) add(whole);
    // Two stages: the few smallest candidates first (usually one of them is the block), the rest
    // in the next round only if none of those was accepted. Halves what the oracle compiles.
    if (options.length > FIRST_STAGE + 1) {
      w.later = { pOrig, options: options.slice(FIRST_STAGE) };
      return { kind: "candidates", window: w, pOrig, options: options.slice(0, FIRST_STAGE) };
    }
    return { kind: "candidates", window: w, pOrig, options };
  }

  private accept(r: Extract<Request, { kind: "candidates" }>, verdicts: CompileVerdict[]): void {
    const w = r.window;
    if (r.options.length === 0) return;
    for (let i = 0; i < r.options.length; i++) {
      const option = r.options[i];
      const v = verdicts[i];
      if (!v.ok && !(w.limit < w.end && pastContent(option.rendered.text, v.error))) {
        const error = v.error;
        const local = lineIndexOf(option.rendered);
        const eOrig = toOriginal(w, option.rendered, local.offset(error.line, error.column), "start");
        if (!(eOrig > r.pOrig && eOrig >= option.block.end)) continue;
        if (INDENTATION.test(error.message) && this.index.lineOf(eOrig) <= this.book.nextCodeLine(option.block.end)) continue;
      }
      w.blocks = option.blocks;
      w.rendered = option.rendered;
      w.later = null;
      this.book.settle(w, v);
      return;
    }
    if (w.later) return; // the next stage of candidates follows
    // Nothing moved the error (only possible past the round cap): the window becomes one block.
    const whole = this.book.wholeWindowBlock(w);
    w.blocks = whole ? [whole] : [];
    w.limit = w.end;
    w.rendered = this.book.render(w, w.blocks);
    w.error = "unknown";
    w.verified = false;
    w.maxRounds = 0;
  }
}
