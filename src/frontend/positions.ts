// Source positions: the one place that converts between the three units the frontend meets.
//   - offsets: UTF-16 code units into a JS string (also what the tree-sitter binding reports,
//     because it feeds the parser UTF-16);
//   - points: 1-based line, 0-based column in code points (what CPython reports for str sources
//     and what the plan and `--explain` show, SPEC §3.4);
// Line breaks are CPython's: "\n", "\r\n" and a lone "\r".

import type { Span } from "./plan.js";

export interface Point {
  line: number;
  column: number;
}

const SURROGATE = /[\uD800-\uDFFF]/;

export class LineIndex {
  readonly text: string;
  /** Offset where each line starts; lineStarts[0] = 0. */
  private readonly starts: number[];
  /** Per line: true when it holds a surrogate pair (code points ≠ code units); filled lazily. */
  private readonly astral: (boolean | undefined)[] = [];
  /** Whether the text holds any surrogate at all (most sources do not: no line needs a look). */
  private readonly anyAstral: boolean;

  constructor(text: string) {
    this.text = text;
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
    this.anyAstral = SURROGATE.test(text);
  }

  /** Number of lines as CPython counts them (a final line break does not open a line). */
  get lineCount(): number {
    const n = this.starts.length;
    return this.starts[n - 1] === this.text.length && n > 1 ? n - 1 : n;
  }

  lineStart(line: number): number {
    return this.starts[Math.min(Math.max(line, 1), this.starts.length) - 1];
  }

  /** Offset just before the line break of `line` (or the end of the text). */
  lineEnd(line: number): number {
    const l = Math.min(Math.max(line, 1), this.starts.length);
    if (l === this.starts.length) return this.text.length;
    let end = this.starts[l];
    if (this.text.charCodeAt(end - 1) === 10) end--;
    if (this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  /** 1-based line containing `offset`. */
  lineOf(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  point(offset: number): Point {
    const line = this.lineOf(offset);
    const start = this.starts[line - 1];
    return { line, column: this.hasAstral(line) ? countCodePoints(this.text, start, offset) : offset - start };
  }

  /** Offset of a code-point column on a line; clamped to the line's content. */
  offset(line: number, column: number): number {
    if (line > this.starts.length) return this.text.length;
    const start = this.lineStart(line);
    const end = this.lineEnd(line);
    if (!this.hasAstral(line)) return Math.min(start + Math.max(column, 0), end);
    let o = start;
    for (let k = 0; k < column && o < end; k++) {
      const c = this.text.charCodeAt(o);
      o += c >= 0xd800 && c <= 0xdbff && o + 1 < end ? 2 : 1;
    }
    return o;
  }

  span(start: number, end: number): Span {
    const a = this.point(start);
    const b = this.point(end);
    return { line: a.line, column: a.column, end_line: b.line, end_column: b.column };
  }

  private hasAstral(line: number): boolean {
    if (!this.anyAstral) return false;
    let v = this.astral[line];
    if (v === undefined) {
      v = SURROGATE.test(this.text.slice(this.starts[line - 1], this.lineEnd(line)));
      this.astral[line] = v;
    }
    return v;
  }
}

export function countCodePoints(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!(c >= 0xdc00 && c <= 0xdfff && i > from && isHigh(text.charCodeAt(i - 1)))) n++;
  }
  return n;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Number of lines of `text` as CPython counts them. */
export function lineCount(text: string): number {
  let breaks = 0;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      breaks++;
      last = i;
    }
  }
  return breaks > 0 && last === text.length - 1 ? breaks : breaks + 1;
}
