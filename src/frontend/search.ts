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
import type { BlockKind } from "./plan.js";
import { LineIndex } from "./positions.js";
import { scan } from "./scanner.js";
import { candidatesAt } from "./candidates.js";
import { bulletBlock, lineAt } from "./suites.js";
import { placeholderCall } from "./render.js";
import type { Window } from "./windows.js";

/** A block as a span of the original source (UTF-16 offsets). */
export interface FoundBlock {
  start: number;
  end: number;
  kind: BlockKind;
}

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
}
const RUN_OFF = /^('.' was never closed|unterminated triple-quoted string|unexpected EOF)/;
/** Candidates sent in the first stage of a search step. */
const FIRST_STAGE = 3;
const INDENTATION = /^(unexpected indent|expected an indented block|unindent does not match)/;
/** Errors of CPython's tokenizer, which replace an earlier generic "invalid syntax". */
const TOKENIZER = new RegExp(
  "^(unterminated (triple-quoted )?string literal|invalid (decimal|hexadecimal|octal|binary|imaginary) literal|invalid digit|" +
    "invalid character|invalid non-printable character|unmatched '|closing parenthesis|'.' was never closed|" +
    "unindent does not match|inconsistent use of tabs|unexpected character after line continuation|leading zeros|" +
    "too many nested parentheses|unexpected EOF)",
);

interface Segment {
  curStart: number;
  curEnd: number;
  origStart: number;
  origEnd: number;
}

/** A window's text with its blocks replaced by placeholder calls, cut at the window's limit. */
interface Rendered {
  text: string;
  segments: Segment[];
}

interface WindowState {
  start: number;
  end: number;
  /** Original offset (a line start) up to which the window is compiled; `end` when uncut. */
  limit: number;
  blocks: FoundBlock[];
  rendered: Rendered;
  /** null: compiles up to the limit; "unknown": to be compiled again. */
  error: CompileError | null | "unknown";
  /** Original offsets of tokenizer errors whose prefix was already checked. */
  probed: Set<number>;
  /** The last verdict was "compiles" for the whole window with the current blocks. */
  verified: boolean;
  /** Candidates for the current error not tried yet (the next stage), with the error's position. */
  later: { pOrig: number; options: Option[] } | null;
  rounds: number;
  maxRounds: number;
}

interface Option {
  block: FoundBlock;
  blocks: FoundBlock[];
  rendered: Rendered;
}

type Request = { kind: "recheck"; window: WindowState } | { kind: "candidates"; window: WindowState; pOrig: number; options: Option[] };

/**
 * A block never ends in whitespace or a line break (a token that runs to the end of the text, like
 * an unterminated triple-quoted string, would otherwise take the last line break with it).
 */
export function trimmed(source: string, block: FoundBlock): FoundBlock {
  let end = block.end;
  while (end > block.start && /\s/.test(source[end - 1])) end--;
  return end === block.end ? block : { ...block, end };
}

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
    this.index = args.index ?? new LineIndex(args.source);
  }

  async run(): Promise<SearchResult> {
    const source = this.source;
    const ranges = this.args.windows ?? [{ start: 0, end: source.length }];
    let windows = ranges.map((w) => this.newWindow(w.start, w.end, []));
    const first = await this.check(windows.map((w) => w.rendered.text));
    windows.forEach((w, i) => this.settle(w, first[i]));
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
          this.settle(r.window, results[k++]);
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

  private newWindow(start: number, end: number, blocks: FoundBlock[]): WindowState {
    const lines = this.index.lineOf(end) - this.index.lineOf(start) + 1;
    const w: WindowState = { start, end, limit: end, blocks, rendered: { text: "", segments: [] }, error: "unknown", probed: new Set(), verified: false, later: null, rounds: 0, maxRounds: 2 * lines + 8 };
    w.rendered = this.render(w, blocks);
    return w;
  }

  /** Records a verdict of the window's text (up to its limit), cutting or uncutting the limit. */
  private settle(w: WindowState, v: CompileVerdict): void {
    w.verified = v.ok && w.limit === w.end;
    if (v.ok || (w.limit < w.end && this.pastContent(w.rendered.text, v.error))) {
      if (w.limit < w.end) this.setLimit(w, w.end);
      else w.error = null;
      return;
    }
    const error = v.error;
    if (TOKENIZER.test(error.message)) {
      const local = new LineIndex(w.rendered.text);
      const at = this.toOriginal(w, w.rendered, local.offset(error.line, error.column), "start");
      if (!w.probed.has(at)) {
        w.probed.add(at);
        const cut = this.statementLineStart(w, w.rendered, local.offset(error.line, error.column));
        if (cut > w.start && cut < w.limit) {
          this.setLimit(w, cut);
          return;
        }
      }
    }
    w.error = error;
  }

  private setLimit(w: WindowState, limit: number): void {
    w.later = null;
    w.limit = limit;
    w.rendered = this.render(w, w.blocks);
    w.error = "unknown";
  }

  /**
   * Original offset of the start of the line where the statement holding `cur` begins: its logical
   * line, or the header of the bullet list it is part of, so that a cut never splits a list
   * (SPEC §3.1: the header and its bullets are one block).
   */
  private statementLineStart(w: WindowState, r: Rendered, cur: number): number {
    const sc = scan(r.text, { tokens: false });
    if (sc.lines.length === 0) return w.start;
    const li = lineAt(sc.lines, cur);
    const line = sc.lines[li];
    if (line.start > cur) return this.toOriginal(w, r, cur, "start");
    const bullets = bulletBlock(sc, li);
    return this.toOriginal(w, r, sc.lines[bullets ? bullets.header : li].lineStart, "start");
  }

  /** Merges windows whose first error needs the text after them; guards against misplaced boundaries. */
  private async mergeWhereNeeded(windows: WindowState[]): Promise<WindowState[]> {
    const out: WindowState[] = [];
    for (let i = 0; i < windows.length; i++) {
      let w = windows[i];
      while (w.error !== null && w.error !== "unknown" && w.limit === w.end && i + 1 < windows.length) {
        const error = w.error;
        if (!this.pastContent(w.rendered.text, error)) {
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

  /**
   * The error only says that `text` ends too early: it lies after the last statement, or it is a
   * header on the last line still waiting for its body.
   */
  private pastContent(text: string, error: CompileError): boolean {
    const sc = scan(text, { tokens: false });
    if (sc.lines.length === 0) return true;
    const lastLine = new LineIndex(text).lineOf(sc.lines[sc.lines.length - 1].end);
    return error.line > lastLine || (error.line === lastLine && /^(expected an indented block|unexpected EOF)/.test(error.message));
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
    const pCur = new LineIndex(text).offset(error.line, error.column);
    const pOrig = this.toOriginal(w, w.rendered, pCur, "start");
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
      options.push(this.option(w, block));
    };
    if (w.rounds <= w.maxRounds) {
      for (const c of candidatesAt(scan(text), pCur, error.message)) {
        add({ start: this.toOriginal(w, w.rendered, c.start, "start"), end: this.toOriginal(w, w.rendered, c.end, "end"), kind: c.kind });
      }
    }
    const whole = this.wholeWindowBlock(w);
    if (whole) add(whole);
    // Two stages: the few smallest candidates first (usually one of them is the block), the rest
    // in the next round only if none of those was accepted. Halves what the oracle compiles.
    if (options.length > FIRST_STAGE + 1) {
      w.later = { pOrig, options: options.slice(FIRST_STAGE) };
      return { kind: "candidates", window: w, pOrig, options: options.slice(0, FIRST_STAGE) };
    }
    return { kind: "candidates", window: w, pOrig, options };
  }

  private option(w: WindowState, found: FoundBlock): Option {
    const block = trimmed(this.source, found);
    const blocks = w.blocks.filter((b) => b.end <= block.start || b.start >= block.end);
    blocks.push(block);
    blocks.sort((a, b) => a.start - b.start);
    return { block, blocks, rendered: this.render(w, blocks) };
  }

  private accept(r: Extract<Request, { kind: "candidates" }>, verdicts: CompileVerdict[]): void {
    const w = r.window;
    if (r.options.length === 0) return;
    for (let i = 0; i < r.options.length; i++) {
      const option = r.options[i];
      const v = verdicts[i];
      if (!v.ok && !(w.limit < w.end && this.pastContent(option.rendered.text, v.error))) {
        const error = v.error;
        const local = new LineIndex(option.rendered.text);
        const eOrig = this.toOriginal(w, option.rendered, local.offset(error.line, error.column), "start");
        if (!(eOrig > r.pOrig && eOrig >= option.block.end)) continue;
        if (INDENTATION.test(error.message) && this.index.lineOf(eOrig) <= this.nextCodeLine(option.block.end)) continue;
      }
      w.blocks = option.blocks;
      w.rendered = option.rendered;
      w.later = null;
      this.settle(w, v);
      return;
    }
    if (w.later) return; // the next stage of candidates follows
    // Nothing moved the error (only possible past the round cap): the window becomes one block.
    const whole = this.wholeWindowBlock(w);
    w.blocks = whole ? [whole] : [];
    w.limit = w.end;
    w.rendered = this.render(w, w.blocks);
    w.error = "unknown";
    w.verified = false;
    w.maxRounds = 0;
  }

  /** The window's statements (up to its limit) as one statement block. */
  private wholeWindowBlock(w: WindowState): FoundBlock | null {
    const sc = scan(this.source.slice(w.start, w.limit), { tokens: false });
    if (sc.lines.length === 0) return null;
    const first = sc.lines[0];
    // An indented first line at the very start of the file: the block starts at column 0.
    const start = w.start === 0 && first.indent > 0 ? first.lineStart : first.start;
    return trimmed(this.source, { start: w.start + start, end: w.start + sc.lines[sc.lines.length - 1].end, kind: "statement" });
  }

  /** First line after `offset`'s line that holds something other than blanks or a comment. */
  private nextCodeLine(offset: number): number {
    const index = this.index;
    let line = index.lineOf(offset) + 1;
    while (line <= index.lineCount && /^\s*(#.*)?$/.test(index.lineText(line))) line++;
    return line;
  }

  private render(w: WindowState, blocks: FoundBlock[]): Rendered {
    const source = this.source;
    const parts: string[] = [];
    const segments: Segment[] = [];
    let at = w.start;
    let cur = 0;
    for (const b of blocks) {
      if (b.start >= w.limit) break;
      const before = source.slice(at, b.start);
      parts.push(before);
      cur += before.length;
      const call = placeholderCall(source.slice(b.start, b.end), this.args.runtimeName);
      parts.push(call);
      segments.push({ curStart: cur, curEnd: cur + call.length, origStart: b.start, origEnd: b.end });
      cur += call.length;
      at = b.end;
    }
    parts.push(source.slice(at, Math.max(at, w.limit)));
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
