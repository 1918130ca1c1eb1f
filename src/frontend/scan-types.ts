// What the scanner (scanner.ts) produces: tokens with their bracket depth, logical lines as
// CPython sees them outside brackets, and comments. Offsets are UTF-16 code units into the
// scanned text.

import type { FieldSpan } from "./string-literals.js";

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
