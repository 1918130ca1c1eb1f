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

import { isAsciiNameChar, isAsciiNameStart, isLineBreak, isStringPrefix, readString, type FieldSpan } from "./string-literals.js";

export type TokenKind = "name" | "number" | "string" | "op" | "open" | "close" | "error";

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** Bracket depth the token sits at (an opener and its closer share the outer depth). */
  depth: number;
  /** Text of names, operators and brackets; "" for other kinds. */
  value: string;
  /** f-string replacement-field expressions, for f-strings only. */
  fields?: FieldSpan[];
  /** False for a string that runs into a line break or the end of the text. */
  terminated?: boolean;
}

export type { FieldSpan };

export interface LogicalLine {
  /** Token index range, inclusive (-1 when the scan kept no tokens). */
  first: number;
  last: number;
  /** Text of the first token when it is a name or operator (a keyword, `@`, `-`), else "". */
  head: string;
  /** The last token is a `:` outside brackets (a header). */
  colon: boolean;
  /** Offsets: start of the first token, end of the last token (trailing comments excluded). */
  start: number;
  end: number;
  /** Offset where the physical line of the first token begins. */
  lineStart: number;
  /** Indentation width, tabs to the next multiple of 8 (CPython's rule); a form feed resets it. */
  indent: number;
}

export interface Comment {
  start: number;
  end: number;
  /** Nothing but whitespace before it on its physical line. */
  ownLine: boolean;
  /** Bracket depth at the comment. */
  depth: number;
}

export interface Scan {
  text: string;
  tokens: Token[];
  lines: LogicalLine[];
  comments: Comment[];
}

const RESET_KEYWORDS = new Set([
  "def", "class", "return", "import", "while", "with", "try", "except", "finally", "elif",
  "pass", "raise", "global", "nonlocal", "assert", "del", "break", "continue",
]);

const OPERATORS_1 = "+-*/%@&|^~<>,:;.=!";
/** Interned operator strings, so tokens share them instead of slicing the source. */
const OPERATOR_TEXT = new Map(
  [
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "!=", "==", "<=", ">=", "**", "//", "<<", ">>", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "@=", "<>", ...OPERATORS_1,
  ].map((op) => [op, op]),
);
const CLOSER: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

const NAME_NON_ASCII = /[\p{ID_Start}_][\p{ID_Continue}\u00B7\u0387\u200C\u200D]*/uy;
const NAME_CONTINUE = /[\p{ID_Continue}\u00B7\u0387\u200C\u200D]*/uy;
const NUMBER = /(?:0[xXoObB][0-9a-fA-F_]*|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9_]+)?)[jJlL]?/y;

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

class Scanner {
  private readonly text: string;
  private readonly n: number;
  private pos = 0;
  private readonly tokens: Token[] = [];
  private readonly lines: LogicalLine[] = [];
  private readonly comments: Comment[] = [];
  private readonly stack: string[] = [];
  /** Token index where the open logical line begins, or -1. */
  private lineFirst = -1;
  private lineIndent = 0;
  private lineStartOffset = 0;
  /** At the start of a physical line (only whitespace seen so far). */
  private atLineStart = true;

  private readonly keep: boolean;
  /** The open logical line, when tokens are not kept. */
  private count = 0;
  private head = "";
  private firstStart = 0;
  private lastEnd = 0;
  private colon = false;

  constructor(text: string, keep: boolean) {
    this.text = text;
    this.n = text.length;
    this.keep = keep;
  }

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
        NUMBER.lastIndex = this.pos;
        NUMBER.exec(text);
        const end = Math.max(NUMBER.lastIndex, this.pos + 1);
        this.push("number", this.pos, end, "");
        this.pos = end;
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

  private static readonly DROPPED: Token = { kind: "error", start: 0, end: 0, depth: 0, value: "", fields: undefined, terminated: true };

  private push(kind: TokenKind, start: number, end: number, value: string): Token {
    const depth = this.stack.length;
    if (this.count === this.lineFirst) {
      this.firstStart = start;
      this.head = kind === "name" || kind === "op" ? value : "";
    }
    this.lastEnd = end;
    this.colon = kind === "op" && depth === 0 && value === ":";
    this.count++;
    if (!this.keep) return Scanner.DROPPED;
    // Every token has the same shape (fields, terminated), which keeps property access monomorphic.
    const token: Token = { kind, start, end, depth, value, fields: undefined, terminated: true };
    this.tokens.push(token);
    return token;
  }

  private comment(ownLine: boolean): void {
    const start = this.pos;
    let i = start;
    while (i < this.n && !isLineBreak(this.text.charCodeAt(i))) i++;
    const own = ownLine || this.onlyWhitespaceBefore(start);
    this.comments.push({ start, end: i, ownLine: own, depth: this.stack.length });
    this.pos = i;
  }

  private onlyWhitespaceBefore(offset: number): boolean {
    for (let i = offset - 1; i >= 0; i--) {
      const c = this.text.charCodeAt(i);
      if (isLineBreak(c)) return true;
      if (c !== 32 && c !== 9 && c !== 12) return false;
    }
    return true;
  }

  private close(): void {
    const v = this.text[this.pos];
    const want = CLOSER[v];
    const at = this.stack.lastIndexOf(want);
    if (at < 0) {
      this.push("error", this.pos, this.pos + 1, v);
    } else {
      this.stack.length = at;
      this.push("close", this.pos, this.pos + 1, v);
    }
    this.pos++;
  }

  private operator(): void {
    const text = this.text;
    const at = this.pos;
    const c = text.charCodeAt(at);
    const c1 = text.charCodeAt(at + 1);
    const c2 = text.charCodeAt(at + 2);
    let length = 0;
    if (c2 === 61 && ((c === 42 && c1 === 42) || (c === 47 && c1 === 47) || (c === 62 && c1 === 62) || (c === 60 && c1 === 60))) length = 3; // **= //= >>= <<=
    else if (c === 46 && c1 === 46 && c2 === 46) length = 3; // ...
    else if (c1 === 61 && "+-*/%&|^@=!<>:".includes(text[at])) length = 2; // op= == != <= >= :=
    else if ((c === 45 && c1 === 62) || (c === 60 && c1 === 62)) length = 2; // -> <>
    else if ((c === 42 && c1 === 42) || (c === 47 && c1 === 47) || (c === 60 && c1 === 60) || (c === 62 && c1 === 62)) length = 2; // ** // << >>
    else if (OPERATORS_1.includes(text[at])) length = 1;
    if (length > 0) {
      this.push("op", at, at + length, OPERATOR_TEXT.get(text.substr(at, length)) ?? text.substr(at, length));
      this.pos += length;
      return;
    }
    const cp = text.codePointAt(at) ?? 0;
    const len = cp > 0xffff ? 2 : 1;
    this.push("error", at, at + len, text.slice(at, at + len));
    this.pos += len;
  }

  private nameOrString(): void {
    const text = this.text;
    const start = this.pos;
    let end = start;
    const c = text.charCodeAt(start);
    if (c < 128) {
      end = start + 1;
      while (end < this.n && isAsciiNameChar(text.charCodeAt(end))) end++;
      if (end < this.n && text.charCodeAt(end) >= 128) {
        NAME_CONTINUE.lastIndex = end;
        NAME_CONTINUE.exec(text);
        end = NAME_CONTINUE.lastIndex;
      }
    } else {
      NAME_NON_ASCII.lastIndex = start;
      if (NAME_NON_ASCII.exec(text) === null) {
        this.operator(); // a symbol outside any string: an error token of one code point
        return;
      }
      end = NAME_NON_ASCII.lastIndex;
    }
    const q = text.charCodeAt(end);
    if ((q === 39 || q === 34) && isStringPrefix(text.slice(start, end))) {
      this.string(start, end);
      return;
    }
    this.push("name", start, end, this.keep || this.count === this.lineFirst ? text.slice(start, end) : "");
    this.pos = end;
  }

  /** A string literal whose prefix starts at `start` and whose quote is at `quote`. */
  private string(start: number, quote: number): void {
    const prefix = this.text.slice(start, quote).toLowerCase();
    const formatted = prefix.includes("f") || prefix.includes("t");
    const result = readString(this.text, quote, formatted);
    const token = this.push("string", start, result.end, "");
    if (this.keep) {
      token.terminated = result.terminated;
      token.fields = formatted ? result.fields : undefined;
    }
    this.pos = result.end;
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
