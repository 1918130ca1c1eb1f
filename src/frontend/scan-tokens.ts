// Reading one token for the scanner (scanner.ts): names, numbers, string literals (their ends
// and f-string fields from string-literals.ts), operators, brackets (an unmatched closer is an
// error token and changes no depth) and comments. Each token is pushed with its bracket depth,
// and the open logical line's head, first start, last end and trailing `:` are kept as tokens
// are pushed, so the scanner's line bookkeeping works with or without a token list.

import { isAsciiNameChar, isLineBreak, isStringPrefix, readString } from "./string-literals.js";
import type { Comment, Token, TokenKind } from "./scan-types.js";

const OPERATORS_1 = "+-*/%@&|^~<>,:;.=!";
/** Interned operator strings, so tokens share them instead of slicing the source. */
const OPERATOR_TEXT = new Map(
  ["**=", "//=", ">>=", "<<=", "...", "->", ":=", "!=", "==", "<=", ">=", "**", "//", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "<>", ...OPERATORS_1].map(
    (op) => [op, op],
  ),
);
const CLOSER: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

const NAME_NON_ASCII = /[\p{ID_Start}_][\p{ID_Continue}\u00B7\u0387\u200C\u200D]*/uy;
const NAME_CONTINUE = /[\p{ID_Continue}\u00B7\u0387\u200C\u200D]*/uy;
const NUMBER = /(?:0[xXoObB][0-9a-fA-F_]*|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9_]+)?)[jJlL]?/y;

export class TokenReader {
  protected readonly text: string;
  protected readonly n: number;
  protected pos = 0;
  protected readonly tokens: Token[] = [];
  protected readonly comments: Comment[] = [];
  protected readonly stack: string[] = [];
  /** Token index where the open logical line begins, or -1. */
  protected lineFirst = -1;

  protected readonly keep: boolean;
  /** The open logical line, when tokens are not kept. */
  protected count = 0;
  protected head = "";
  protected firstStart = 0;
  protected lastEnd = 0;
  protected colon = false;

  constructor(text: string, keep: boolean) {
    this.text = text;
    this.n = text.length;
    this.keep = keep;
  }

  private static readonly DROPPED: Token = { kind: "error", start: 0, end: 0, depth: 0, value: "", fields: undefined, terminated: true };

  protected push(kind: TokenKind, start: number, end: number, value: string): Token {
    const depth = this.stack.length;
    if (this.count === this.lineFirst) {
      this.firstStart = start;
      this.head = kind === "name" || kind === "op" ? value : "";
    }
    this.lastEnd = end;
    this.colon = kind === "op" && depth === 0 && value === ":";
    this.count++;
    if (!this.keep) return TokenReader.DROPPED;
    // Every token has the same shape (fields, terminated), which keeps property access monomorphic.
    const token: Token = { kind, start, end, depth, value, fields: undefined, terminated: true };
    this.tokens.push(token);
    return token;
  }

  protected comment(ownLine: boolean): void {
    const start = this.pos;
    let i = start;
    while (i < this.n && !isLineBreak(this.text.charCodeAt(i))) i++;
    const own = ownLine || this.onlyWhitespaceBefore(start);
    this.comments.push({ start, end: i, ownLine: own, depth: this.stack.length });
    this.pos = i;
  }

  protected onlyWhitespaceBefore(offset: number): boolean {
    for (let i = offset - 1; i >= 0; i--) {
      const c = this.text.charCodeAt(i);
      if (isLineBreak(c)) return true;
      if (c !== 32 && c !== 9 && c !== 12) return false;
    }
    return true;
  }

  protected close(): void {
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

  protected operator(): void {
    const text = this.text;
    const at = this.pos;
    const c = text.charCodeAt(at);
    const c1 = text.charCodeAt(at + 1);
    const c2 = text.charCodeAt(at + 2);
    let length = 0;
    if (c2 === 61 && ((c === 42 && c1 === 42) || (c === 47 && c1 === 47) || (c === 62 && c1 === 62) || (c === 60 && c1 === 60)))
      length = 3; // **= //= >>= <<=
    else if (c === 46 && c1 === 46 && c2 === 46)
      length = 3; // ...
    else if (c1 === 61 && "+-*/%&|^@=!<>:".includes(text[at]))
      length = 2; // op= == != <= >= :=
    else if ((c === 45 && c1 === 62) || (c === 60 && c1 === 62))
      length = 2; // -> <>
    else if ((c === 42 && c1 === 42) || (c === 47 && c1 === 47) || (c === 60 && c1 === 60) || (c === 62 && c1 === 62))
      length = 2; // ** // << >>
    else if (OPERATORS_1.includes(text[at])) length = 1;
    if (length > 0) {
      // Without a token list only a line's first token and a `:` are read by their text.
      const read = this.keep || this.count === this.lineFirst || c === 58;
      this.push("op", at, at + length, read ? (OPERATOR_TEXT.get(text.substr(at, length)) ?? text.substr(at, length)) : "");
      this.pos += length;
      return;
    }
    const cp = text.codePointAt(at) ?? 0;
    const len = cp > 0xffff ? 2 : 1;
    this.push("error", at, at + len, text.slice(at, at + len));
    this.pos += len;
  }

  protected nameOrString(): void {
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
  protected string(start: number, quote: number): void {
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

  protected number(): void {
    NUMBER.lastIndex = this.pos;
    NUMBER.exec(this.text);
    const end = Math.max(NUMBER.lastIndex, this.pos + 1);
    this.push("number", this.pos, end, "");
    this.pos = end;
  }
}
