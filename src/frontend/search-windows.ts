// A searched window's state (search.ts): its blocks, its text with them rendered as placeholder
// calls and cut at its limit (offsets of that text mapped back to the source), and how a verdict
// of the oracle on that text is recorded (a tokenizer error cuts the limit to the line of the
// statement it lies in: SPEC §3.1, search.ts step 3).

import type { CompileError, CompileVerdict } from "./oracle.js";
import type { BlockKind } from "./plan.js";
import { LineIndex } from "./positions.js";
import { scan } from "./scanner.js";
import { bulletBlock, lineAt } from "./suites.js";
import { placeholderCall } from "./render.js";

/** A block as a span of the original source (UTF-16 offsets). */
export interface FoundBlock {
  start: number;
  end: number;
  kind: BlockKind;
}

/** Errors of CPython's tokenizer, which replace an earlier generic "invalid syntax". */
const TOKENIZER = new RegExp(
  "^(unterminated (triple-quoted )?string literal|invalid (decimal|hexadecimal|octal|binary|imaginary) literal|invalid digit|" +
    "invalid character|invalid non-printable character|unmatched '|closing parenthesis|'.' was never closed|" +
    "unindent does not match|inconsistent use of tabs|unexpected character after line continuation|leading zeros|" +
    "too many nested parentheses|unexpected EOF)",
);

export interface Segment {
  curStart: number;
  curEnd: number;
  origStart: number;
  origEnd: number;
}

/** A window's text with its blocks replaced by placeholder calls, cut at the window's limit. */
export interface Rendered {
  text: string;
  segments: Segment[];
  /** The text's line index, made once it is needed (lineIndexOf). */
  lines?: LineIndex;
}

/** The line index of a rendered text (an accepted option's is asked again in the window's next round). */
export function lineIndexOf(r: Rendered): LineIndex {
  r.lines ??= new LineIndex(r.text);
  return r.lines;
}

export interface WindowState {
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
  /** The window's statements up to `limit` as one statement block (wholeWindowBlock), once asked. */
  whole?: { limit: number; block: FoundBlock | null };
}

export interface Option {
  block: FoundBlock;
  blocks: FoundBlock[];
  rendered: Rendered;
}

/**
 * A block never ends in whitespace or a line break (a token that runs to the end of the text, like
 * an unterminated triple-quoted string, would otherwise take the last line break with it).
 */
export function trimmed(source: string, block: FoundBlock): FoundBlock {
  let end = block.end;
  while (end > block.start && /\s/.test(source[end - 1])) end--;
  return end === block.end ? block : { ...block, end };
}

/**
 * The error only says that `text` ends too early: it lies after the last statement, or it is a
 * header on the last line still waiting for its body.
 */
export function pastContent(text: string, error: CompileError): boolean {
  const sc = scan(text, { tokens: false });
  if (sc.lines.length === 0) return true;
  const lastLine = new LineIndex(text).lineOf(sc.lines[sc.lines.length - 1].end);
  return error.line > lastLine || (error.line === lastLine && /^(expected an indented block|unexpected EOF)/.test(error.message));
}

export function toOriginal(w: WindowState, r: Rendered, cur: number, bias: "start" | "end"): number {
  let growth = 0;
  for (const s of r.segments) {
    if (cur <= s.curStart) break;
    if (cur < s.curEnd) return bias === "start" ? s.origStart : s.origEnd;
    growth += s.curEnd - s.curStart - (s.origEnd - s.origStart);
  }
  return w.start + cur - growth;
}

/** The windows' operations that need the source: rendering, offsets, the whole-window block. */
export class WindowBook {
  constructor(
    private readonly source: string,
    private readonly index: LineIndex,
    private readonly runtimeName: string,
  ) {}

  newWindow(start: number, end: number, blocks: FoundBlock[]): WindowState {
    const lines = this.index.lineOf(end) - this.index.lineOf(start) + 1;
    const w: WindowState = {
      start,
      end,
      limit: end,
      blocks,
      rendered: { text: "", segments: [] },
      error: "unknown",
      probed: new Set(),
      verified: false,
      later: null,
      rounds: 0,
      maxRounds: 2 * lines + 8,
    };
    w.rendered = this.render(w, blocks);
    return w;
  }

  /** Records a verdict of the window's text (up to its limit), cutting or uncutting the limit. */
  settle(w: WindowState, v: CompileVerdict): void {
    w.verified = v.ok && w.limit === w.end;
    if (v.ok || (w.limit < w.end && pastContent(w.rendered.text, v.error))) {
      if (w.limit < w.end) this.setLimit(w, w.end);
      else w.error = null;
      return;
    }
    const error = v.error;
    if (TOKENIZER.test(error.message)) {
      const local = lineIndexOf(w.rendered);
      const at = toOriginal(w, w.rendered, local.offset(error.line, error.column), "start");
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

  setLimit(w: WindowState, limit: number): void {
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
    if (line.start > cur) return toOriginal(w, r, cur, "start");
    const bullets = bulletBlock(sc, li);
    return toOriginal(w, r, sc.lines[bullets ? bullets.header : li].lineStart, "start");
  }

  option(w: WindowState, found: FoundBlock): Option {
    const block = trimmed(this.source, found);
    const blocks = w.blocks.filter((b) => b.end <= block.start || b.start >= block.end);
    blocks.push(block);
    blocks.sort((a, b) => a.start - b.start);
    return { block, blocks, rendered: this.render(w, blocks) };
  }

  /** The window's statements (up to its limit) as one statement block. */
  wholeWindowBlock(w: WindowState): FoundBlock | null {
    if (w.whole?.limit !== w.limit) w.whole = { limit: w.limit, block: this.wholeBlock(w) };
    return w.whole.block;
  }

  private wholeBlock(w: WindowState): FoundBlock | null {
    const sc = scan(this.source.slice(w.start, w.limit), { tokens: false });
    if (sc.lines.length === 0) return null;
    const first = sc.lines[0];
    // An indented first line at the very start of the file: the block starts at column 0.
    const start = w.start === 0 && first.indent > 0 ? first.lineStart : first.start;
    return trimmed(this.source, { start: w.start + start, end: w.start + sc.lines[sc.lines.length - 1].end, kind: "statement" });
  }

  /** First line after `offset`'s line that holds something other than blanks or a comment. */
  nextCodeLine(offset: number): number {
    const index = this.index;
    let line = index.lineOf(offset) + 1;
    while (line <= index.lineCount && /^\s*(#.*)?$/.test(index.lineText(line))) line++;
    return line;
  }

  render(w: WindowState, blocks: FoundBlock[]): Rendered {
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
      const call = placeholderCall(source.slice(b.start, b.end), this.runtimeName);
      parts.push(call);
      segments.push({ curStart: cur, curEnd: cur + call.length, origStart: b.start, origEnd: b.end });
      cur += call.length;
      at = b.end;
    }
    parts.push(source.slice(at, Math.max(at, w.limit)));
    return { text: parts.join(""), segments };
  }
}
