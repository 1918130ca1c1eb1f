// Statements and suites of a scanned text, by logical lines and indentation: which line holds an
// offset, headers and their suites, the compound statement a clause belongs to (with its
// decorators and its elif/else/except/finally clauses), the suites enclosing a line, and the
// bullet-list rule of SPEC §3.1. Used for candidate spans (candidates.ts) and scopes (scopes.ts).

import type { LogicalLine, Scan, Token } from "./scanner.js";

const COMPOUND_KEYWORDS = new Set(["if", "elif", "else", "for", "while", "with", "try", "except", "finally", "def", "class", "async", "match", "case"]);
const CLAUSE_KEYWORDS = new Set(["elif", "else", "except", "finally"]);

/** Index of the logical line holding offset `p` (or the nearest one before it). */
export function lineAt(lines: LogicalLine[], p: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid].lineStart <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function lastToken(scan: Scan, line: LogicalLine): Token {
  return scan.tokens[line.last];
}

function firstWord(scan: Scan, line: LogicalLine): string {
  const t = scan.tokens[line.first];
  return t.kind === "name" || t.value === "@" ? t.value : "";
}

/** A line that opens a suite: it ends with `:` at depth 0, or starts with a compound keyword. */
export function isHeader(scan: Scan, line: LogicalLine): boolean {
  const last = lastToken(scan, line);
  if (last.kind === "op" && last.value === ":" && last.depth === 0) return true;
  return COMPOUND_KEYWORDS.has(firstWord(scan, line)) && firstWord(scan, line) !== "match" && firstWord(scan, line) !== "case";
}

/**
 * A bullet-list header: the line ends in `:`, outside brackets, or as the last character of a
 * string the line leaves unterminated (an apostrophe in the natural language: `plan the week's tasks:`).
 */
function endsWithColon(scan: Scan, line: LogicalLine): boolean {
  if (line.colon) return true;
  let end = line.end;
  while (end > line.start && /\s/.test(scan.text[end - 1])) end--;
  return end > line.start && scan.text[end - 1] === ":";
}

/** Last logical line of the lines after `li` that are indented deeper than it (or `li`). */
export function paragraphEnd(scan: Scan, li: number): number {
  const lines = scan.lines;
  let j = li;
  while (j + 1 < lines.length && lines[j + 1].indent > lines[li].indent) j++;
  return j;
}

export function previousShallower(lines: LogicalLine[], li: number): number {
  for (let j = li - 1; j >= 0; j--) if (lines[j].indent < lines[li].indent) return j;
  return -1;
}

/** Headers of the suites enclosing line `li`, innermost first. */
export function enclosingHeaders(lines: LogicalLine[], li: number): number[] {
  const out: number[] = [];
  let indent = lines[li].indent;
  for (let j = li - 1; j >= 0 && indent > 0; j--) {
    if (lines[j].indent < indent) {
      out.push(j);
      indent = lines[j].indent;
    }
  }
  return out;
}

/** First line of the compound statement whose clause starts at `h` (its first clause or decorator). */
export function compoundRoot(scan: Scan, h: number): number {
  const lines = scan.lines;
  let root = h;
  for (;;) {
    const word = firstWord(scan, lines[root]);
    let prev = root - 1;
    while (prev >= 0 && lines[prev].indent > lines[root].indent) prev--;
    if (prev < 0 || lines[prev].indent !== lines[root].indent) return root;
    if (CLAUSE_KEYWORDS.has(word) || firstWord(scan, lines[prev]) === "@") root = prev;
    else return root;
  }
}

/** [first, last] logical lines of the compound statement that line `h` belongs to. */
export function compoundExtent(scan: Scan, h: number): [number, number] {
  const lines = scan.lines;
  const root = compoundRoot(scan, h);
  let last = paragraphEnd(scan, h);
  while (last + 1 < lines.length && lines[last + 1].indent === lines[h].indent && CLAUSE_KEYWORDS.has(firstWord(scan, lines[last + 1]))) {
    last = paragraphEnd(scan, last + 1);
  }
  return [root, last];
}

/** The logical line that begins on 1-based physical line `physical`, or -1. */
export function lineStartingOnPhysicalLine(scan: Scan, physical: number): number {
  const text = scan.text;
  let line = 1;
  let offset = 0;
  while (line < physical && offset < text.length) {
    const c = text.charCodeAt(offset++);
    if (c === 10 || (c === 13 && text.charCodeAt(offset) !== 10)) line++;
  }
  for (let i = 0; i < scan.lines.length; i++) if (scan.lines[i].start >= offset) return i;
  return -1;
}

/**
 * A header ending in `:` followed by lines at its indentation that start with `- ` is one block
 * with its bullets; a blank line ends the list; deeper lines continue the bullet above them.
 * Returns that span, with the header's line index, when line `li` is such a header or one of its
 * bullets. Needs only the scan's logical lines (a scan without tokens will do).
 */
export function bulletBlock(scan: Scan, li: number): { header: number; start: number; end: number } | null {
  const lines = scan.lines;
  // Walk up over bullets and their deeper continuation lines to a header ending in ':'.
  let bulletIndent = Infinity;
  for (let h = li; h >= 0; h--) {
    const line = lines[h];
    // A bullet that ends in ':' is still a bullet of the list above it, not a header.
    if (isBulletLine(scan, line)) bulletIndent = Math.min(bulletIndent, line.indent);
    else if (endsWithColon(scan, line)) {
      if (h !== li && line.indent > bulletIndent) return null;
      const span = bulletsAfter(scan, h);
      return span && span.end >= lines[li].start ? span : null;
    } else if (h !== li && line.indent <= bulletIndent) return null;
  }
  return null;
}

function bulletsAfter(scan: Scan, header: number): { header: number; start: number; end: number } | null {
  const lines = scan.lines;
  const physical = physicalLinesAfter(scan.text, lines[header].end);
  const indent = lines[header].indent;
  let end = -1;
  let count = 0;
  for (const pl of physical) {
    if (pl.blank) break;
    if (pl.indent === indent && /^-[ \t]/.test(pl.content)) {
      count++;
      end = pl.end;
    } else if (pl.indent > indent && count > 0) {
      end = pl.end;
    } else break;
  }
  return count > 0 && end >= 0 ? { header, start: lines[header].start, end } : null;
}

/** Read from the logical line alone, so that a scan without tokens will do. */
function isBulletLine(scan: Scan, line: LogicalLine): boolean {
  if (line.head !== "-") return false;
  const next = scan.text.charCodeAt(line.start + 1);
  return next === 32 || next === 9;
}

interface PhysicalLine {
  indent: number;
  content: string;
  end: number;
  blank: boolean;
}

function* physicalLinesAfter(text: string, offset: number): Generator<PhysicalLine> {
  let i = offset;
  while (i < text.length && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
  while (i < text.length) {
    i += text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
    const start = i;
    while (i < text.length && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
    const raw = text.slice(start, i);
    let indent = 0;
    let k = 0;
    for (; k < raw.length; k++) {
      if (raw[k] === " ") indent++;
      else if (raw[k] === "\t") indent = (Math.floor(indent / 8) + 1) * 8;
      else break;
    }
    const content = raw.slice(k);
    let end = i;
    while (end > start && /[ \t]/.test(text[end - 1])) end--;
    yield { indent, content, end, blank: content.trim() === "" };
  }
}
