// A tolerant Python tokenizer: tokens, logical lines and comments for any text, valid or not.
//
// Why not tree-sitter here: candidate spans are needed exactly where the source is broken, and
// tree-sitter's error recovery there is unpredictable (it can swallow a file after one unclosed
// bracket, or attach natural language to the wrong node). This scanner follows CPython's lexical
// rules, so on the valid part of a file (everything before CPython's first error) it sees the
// same logical lines CPython does, and on broken text it degrades line by line:
//   - a single-quoted string that meets a line break ends there, unterminated (CPython's error);
//   - an unmatched closing bracket is an error token and changes no depth;
//   - inside brackets, a physical line that starts with a statement-only keyword (`def`, `class`,
//     `return`, `import`, ...; never valid there) closes every open bracket first, so one unclosed
//     bracket in natural language cannot swallow the rest of the file.
// f-strings are read with PEP 701 rules (3.12+: any quote inside a replacement field) and record
// the span of each field's expression. Offsets are UTF-16 code units into the scanned text.

import { isAsciiNameChar, isAsciiNameStart, isLineBreak } from "./string-literals.js";
import type { Comment, FieldSpan, LogicalLine, Scan, Token, TokenKind } from "./scan-types.js";
import { TokenReader } from "./scan-tokens.js";

export type { Comment, FieldSpan, LogicalLine, Scan, Token, TokenKind };

const RESET_KEYWORDS = new Set([
  "def",
  "class",
  "return",
  "import",
  "while",
  "with",
  "try",
  "except",
  "finally",
  "elif",
  "pass",
  "raise",
  "global",
  "nonlocal",
  "assert",
  "del",
  "break",
  "continue",
]);

export interface ScanOptions {
  /**
   * Keep the token list (default). Without it only logical lines and comments are produced, with
   * no object per token: the cheap mode for whole files.
   */
  tokens?: boolean;
}

export function scan(text: string, options: ScanOptions = {}): Scan {
  return new Scanner(text, options.tokens ?? true).run();
}

class Scanner extends TokenReader {
  private readonly lines: LogicalLine[] = [];
  private lineIndent = 0;
  private lineStartOffset = 0;
  /** At the start of a physical line (only whitespace seen so far). */
  private atLineStart = true;

  run(): Scan {
    const text = this.text;
    while (this.pos < this.n) {
      if (this.atLineStart) {
        if (this.stack.length === 0 && this.lineFirst < 0) {
          if (!this.beginLine()) continue;
        } else if (this.stack.length > 0) {
          this.maybeReset();
        }
        this.atLineStart = false;
        if (this.pos >= this.n) break;
      }
      const c = text.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 12) {
        this.pos++;
      } else if (isLineBreak(c)) {
        this.pos += c === 13 && text.charCodeAt(this.pos + 1) === 10 ? 2 : 1;
        if (this.stack.length === 0) this.endLine();
        this.atLineStart = true;
      } else if (c === 92 /* \ */) {
        const next = text.charCodeAt(this.pos + 1);
        if (isLineBreak(next)) {
          this.pos += next === 13 && text.charCodeAt(this.pos + 2) === 10 ? 3 : 2;
        } else {
          this.push("error", this.pos, this.pos + 1, "\\");
          this.pos++;
        }
      } else if (c === 35 /* # */) {
        this.comment(false);
      } else if (c === 39 || c === 34) {
        this.string(this.pos, this.pos);
      } else if (isAsciiNameStart(c) || c >= 128) {
        this.nameOrString();
      } else if ((c >= 48 && c <= 57) || (c === 46 && isDigit(text.charCodeAt(this.pos + 1)))) {
        this.number();
      } else if (c === 40 || c === 91 || c === 123) {
        const v = text[this.pos];
        this.push("open", this.pos, this.pos + 1, v);
        this.stack.push(v);
        this.pos++;
      } else if (c === 41 || c === 93 || c === 125) {
        this.close();
      } else {
        this.operator();
      }
    }
    this.endLine();
    return { text: this.text, tokens: this.tokens, lines: this.lines, comments: this.comments };
  }

  /** Reads indentation at a line start outside brackets. False when the line holds no token. */
  private beginLine(): boolean {
    const text = this.text;
    const lineStart = this.pos;
    let col = 0;
    let i = this.pos;
    for (; i < this.n; i++) {
      const c = text.charCodeAt(i);
      if (c === 32) col++;
      else if (c === 9) col = (Math.floor(col / 8) + 1) * 8;
      else if (c === 12) col = 0;
      else break;
    }
    this.pos = i;
    if (i >= this.n) return false;
    const c = text.charCodeAt(i);
    if (c === 35) {
      this.comment(true);
      return false;
    }
    if (isLineBreak(c)) {
      this.pos += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      this.atLineStart = true;
      return false;
    }
    this.lineFirst = this.count;
    this.lineIndent = col;
    this.lineStartOffset = lineStart;
    return true;
  }

  /** Inside brackets at a physical line start: a statement-only keyword closes every bracket. */
  private maybeReset(): void {
    const text = this.text;
    const lineStart = this.pos;
    let i = this.pos;
    let col = 0;
    for (; i < this.n; i++) {
      const c = text.charCodeAt(i);
      if (c === 32) col++;
      else if (c === 9) col = (Math.floor(col / 8) + 1) * 8;
      else if (c === 12) col = 0;
      else break;
    }
    let j = i;
    while (j < this.n && isAsciiNameChar(text.charCodeAt(j))) j++;
    if (j === i || !RESET_KEYWORDS.has(text.slice(i, j))) return;
    const after = text.charCodeAt(j);
    if (j < this.n && (after >= 128 || isAsciiNameChar(after))) return;
    this.stack.length = 0;
    this.endLine();
    this.lineFirst = this.count;
    this.lineIndent = col;
    this.lineStartOffset = lineStart;
    this.pos = i;
  }

  private endLine(): void {
    if (this.lineFirst >= 0 && this.count > this.lineFirst) {
      const keep = this.keep;
      this.lines.push({
        first: keep ? this.lineFirst : -1,
        last: keep ? this.count - 1 : -1,
        head: this.head,
        colon: this.colon,
        start: this.firstStart,
        end: this.lastEnd,
        lineStart: this.lineStartOffset,
        indent: this.lineIndent,
      });
    }
    this.lineFirst = -1;
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
