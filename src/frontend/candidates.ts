// Candidate spans around a CPython error, smallest first (SPEC §3.1).
//
// Given the scan of a window's current text and the offset of CPython's first error, this lists
// the spans that could be the natural-language block, in the order the search tries them:
//   1. a header ending in `:` with its same-indentation `- ` bullets (one block by rule); when the
//      header is an assignment, first its right-hand side through the last bullet (an expression
//      block, the target stays Python), then the whole header with its bullets;
//   2. expression positions, innermost first: an f-string field; the part of a bracketed item
//      (keyword value, dict key or value, comprehension element, iterable or condition, lambda
//      body, slice part) and then the whole item, bracket by bracket outwards; then the statement's
//      own expression position (assignment right-hand side, after the last `=` and then the
//      first; `if`/`elif`/`while` condition; `for` iterable; `with` item; `match` subject;
//      `return`/`yield` value; `assert` test or message; decorator expression). A span never starts
//      with `await`: the block is its operand and the `await` stays Python (SPEC §4.3), so the
//      program's `await` applies to the block's value. A `;` at depth 0 ends every such span;
//   3. statements: the simple statement, the logical line, the line with its more-indented
//      continuation lines, the compound statement it heads, each enclosing compound statement,
//      and last the whole window.
// Every candidate contains the error position; the search accepts the first one that makes the
// window compile or moves the first error past it. Offsets are into the scanned text.

import type { BlockKind } from "./plan.js";
import type { LogicalLine, Scan, Token } from "./scanner.js";
import {
  bulletBlock, compoundExtent, compoundRoot, enclosingHeaders, isHeader, lineAt, lineStartingOnPhysicalLine, paragraphEnd, previousShallower,
} from "./suites.js";

export interface Candidate {
  start: number;
  end: number;
  kind: BlockKind;
}

const STATEMENT_KEYWORDS = new Set([
  "if", "elif", "else", "for", "while", "with", "try", "except", "finally", "def", "class", "async", "match", "case",
  "del", "import", "from", "raise", "global", "nonlocal", "pass",
]);
const AUGMENTED = new Set(["+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "^=", "|=", "@="]);

export function candidatesAt(scan: Scan, p: number, message: string): Candidate[] {
  const { lines } = scan;
  if (lines.length === 0) return [];
  const li = lineAt(lines, p);
  const c = new Collector(scan, p);
  const bullets = bulletBlock(scan, li);
  if (bullets) {
    const header = lines[bullets.header];
    const assigns = assignmentOperators(scan.tokens, header.first, header.last);
    if (assigns.length > 0) c.addTokens(assigns[assigns.length - 1] + 1, header.last, bullets.end);
    c.add(bullets.start, bullets.end, "statement");
  }

  const line = lines[li];
  const [segFirst, segLast] = segmentAt(scan, line, p);
  fstringFields(scan, segFirst, segLast, p, message, c);
  bracketParts(scan, segFirst, segLast, p, c);
  statementPositions(scan, segFirst, segLast, c);
  const body = inlineBody(scan, segFirst, segLast);
  if (body >= 0) {
    // A one-line suite (`if x: do the thing`): its statement is a statement of its own.
    statementPositions(scan, body, segLast, c);
    c.add(scan.tokens[body].start, scan.tokens[segLast].end, "statement");
  }

  c.add(scan.tokens[segFirst].start, scan.tokens[segLast].end, "statement");
  c.add(line.start, line.end, "statement");
  const paragraph = paragraphEnd(scan, li);
  if (paragraph > li && !isHeader(scan, line)) c.add(line.start, lines[paragraph].end, "statement");
  if (message.startsWith("unexpected indent") && li > 0) {
    const head = previousShallower(lines, li);
    if (head >= 0) c.add(lines[head].start, lines[paragraph].end, "statement");
  }
  const after = /^expected an indented block after .* on line (\d+)/.exec(message);
  if (after) {
    const headerLine = lineStartingOnPhysicalLine(scan, Number(after[1]));
    if (headerLine >= 0 && headerLine <= li) {
      const root = compoundRoot(scan, headerLine);
      c.add(lines[root].start, lines[Math.max(paragraph, li)].end, "statement");
    }
  }
  if (isHeader(scan, line)) {
    const [root, last] = compoundExtent(scan, li);
    c.add(lines[root].start, lines[last].end, "statement");
  }
  for (const h of enclosingHeaders(lines, li)) {
    const [root, last] = compoundExtent(scan, h);
    c.add(lines[root].start, lines[last].end, "statement");
  }
  c.add(lines[0].start, lines[lines.length - 1].end, "statement");
  return c.list;
}

class Collector {
  readonly list: Candidate[] = [];
  private readonly seen = new Set<string>();
  constructor(
    private readonly scan: Scan,
    private readonly p: number,
  ) {}

  add(start: number, end: number, kind: BlockKind): void {
    if (end <= start || start > this.p || end < this.p) return;
    const key = `${start}:${end}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ start, end, kind });
  }

  /** An expression candidate that need not contain the error position. */
  force(start: number, end: number): void {
    const key = `${start}:${end}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ start, end, kind: "expression" });
  }

  /**
   * An expression candidate over tokens a..b (through offset `end` when given). A leading `await`
   * stays Python: the candidate is its operand.
   */
  addTokens(a: number, b: number, end = -1): void {
    const tokens = this.scan.tokens;
    while (a < b && tokens[a].kind === "name" && tokens[a].value === "await") a++;
    if (a > b) return;
    if (tokens[a].kind === "name" && tokens[a].value === "lambda") {
      // The lambda's body first: a block there is asked on every call of the lambda.
      for (let i = a + 1; i <= b; i++) {
        const t = tokens[i];
        if (t.depth === tokens[a].depth && t.kind === "op" && t.value === ":") {
          if (i + 1 <= b) this.addTokens(i + 1, b);
          break;
        }
      }
    }
    this.add(tokens[a].start, end >= 0 ? end : tokens[b].end, "expression");
  }
}

/** Token range of the `;`-separated simple statement holding `p`. */
function segmentAt(scan: Scan, line: LogicalLine, p: number): [number, number] {
  const tokens = scan.tokens;
  let first = line.first;
  for (let i = line.first; i <= line.last; i++) {
    const t = tokens[i];
    if (t.kind === "op" && t.value === ";" && t.depth === 0) {
      if (p < t.end || i === line.last) return [first, Math.max(first, i - 1)];
      first = i + 1;
    }
  }
  return [Math.min(first, line.last), line.last];
}

function fstringFields(scan: Scan, a: number, b: number, p: number, message: string, c: Collector): void {
  const text = scan.text;
  const all: { start: number; end: number }[] = [];
  for (let i = a; i <= b; i++) {
    const t = scan.tokens[i];
    if (t.kind !== "string" || !t.fields) continue;
    for (const f of t.fields) {
      let s = f.start;
      let e = f.end;
      while (s < e && /\s/.test(text[s])) s++;
      while (e > s && /\s/.test(text[e - 1])) e--;
      if (e > s) all.push({ start: s, end: e });
    }
  }
  const containing = all.filter((f) => f.start <= p && p <= f.end);
  for (const f of containing) c.add(f.start, f.end, "expression");
  // CPython 3.11 may place an f-string error anywhere in the string: then every field is tried.
  if (containing.length === 0 && message.startsWith("f-string")) for (const f of all) c.force(f.start, f.end);
}

/** Items of every bracket enclosing `p` within tokens a..b, innermost bracket first. */
function bracketParts(scan: Scan, a: number, b: number, p: number, c: Collector): void {
  const tokens = scan.tokens;
  const stack: number[] = [];
  for (let i = a; i <= b; i++) {
    const t = tokens[i];
    if (t.start > p) break;
    if (t.kind === "open") stack.push(i);
    else if (t.kind === "close") {
      while (stack.length > 0 && tokens[stack[stack.length - 1]].depth > t.depth) stack.pop();
      if (stack.length > 0 && tokens[stack[stack.length - 1]].depth === t.depth && t.end <= p) stack.pop();
    }
  }
  for (let k = stack.length - 1; k >= 0; k--) {
    const open = stack[k];
    const depth = tokens[open].depth + 1;
    let close = b + 1;
    for (let i = open + 1; i <= b; i++) {
      if (tokens[i].kind === "close" && tokens[i].depth < depth) {
        close = i;
        break;
      }
    }
    itemParts(scan, open, close, depth, p, c);
  }
}

function itemParts(scan: Scan, open: number, close: number, depth: number, p: number, c: Collector): void {
  const tokens = scan.tokens;
  const bracket = tokens[open].value;
  let first = open + 1;
  let itemFirst = -1;
  let itemLast = -1;
  // A comprehension is the bracket's only item: a `for` at its depth and no comma there.
  let hasFor = false;
  let hasComma = false;
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i];
    if (t.depth !== depth) continue;
    if (t.kind === "name" && t.value === "for") hasFor = true;
    if (t.kind === "op" && t.value === ",") hasComma = true;
  }
  const comprehension = hasFor && !hasComma;
  for (let i = open + 1; i <= close; i++) {
    const t = i < close ? tokens[i] : undefined;
    if (!t || (t.kind === "op" && t.value === "," && t.depth === depth)) {
      const last = i - 1;
      if (first <= last && tokens[first].start <= p && p <= tokens[last].end) {
        itemFirst = first;
        itemLast = last;
      } else if (first <= last && t && p >= tokens[last].end && p < t.end) {
        itemFirst = first;
        itemLast = last;
      }
      first = i + 1;
    }
  }
  if (itemFirst < 0) return;
  const parts = comprehension ? comprehensionParts(tokens, itemFirst, itemLast, depth) : simpleParts(tokens, itemFirst, itemLast, depth, bracket, open);
  for (const [s, e] of parts) {
    if (tokens[s].start <= p && p <= tokens[e].end && !(s === itemFirst && e === itemLast)) c.addTokens(s, e);
  }
  c.addTokens(itemFirst, itemLast);
}

/** Sub-spans of one bracketed item, smallest first: keyword/starred value, dict or slice parts. */
function simpleParts(tokens: Token[], a: number, b: number, depth: number, bracket: string, open: number): [number, number][] {
  const parts: [number, number][] = [];
  let value = a;
  const t0 = tokens[a];
  const isCall = bracket === "(" && open > 0 && isCallee(tokens[open - 1]);
  if (t0.kind === "op" && (t0.value === "*" || t0.value === "**")) value = a + 1;
  else if (isCall && t0.kind === "name" && a + 1 <= b && tokens[a + 1].kind === "op" && tokens[a + 1].value === "=") value = a + 2;
  if (value > a && value <= b) parts.push([value, b]);
  if (bracket === "{" || bracket === "[") {
    let from = a;
    for (let i = a; i <= b; i++) {
      const t = tokens[i];
      if (t.depth === depth && t.kind === "op" && t.value === ":") {
        if (from <= i - 1) parts.push([from, i - 1]);
        from = i + 1;
      }
    }
    if (from > a && from <= b) parts.push([from, b]);
  }
  return parts;
}

function isCallee(t: Token): boolean {
  return t.kind === "name" || (t.kind === "close" && t.value !== "}") || t.kind === "string";
}

function comprehensionParts(tokens: Token[], a: number, b: number, depth: number): [number, number][] {
  const parts: [number, number][] = [];
  let i = a;
  let from = a;
  let seenFor = false;
  let role: "element" | "target" | "iterable" | "condition" = "element";
  const flush = (end: number): void => {
    if (from <= end && role !== "target") parts.push([from, end]);
  };
  for (; i <= b; i++) {
    const t = tokens[i];
    if (t.depth !== depth || t.kind !== "name") continue;
    if (t.value === "for" || (t.value === "async" && tokens[i + 1]?.value === "for")) {
      flush(i - 1);
      if (t.value === "async") i++;
      seenFor = true;
      role = "target";
      from = i + 1;
    } else if (seenFor && t.value === "in" && role === "target") {
      role = "iterable";
      from = i + 1;
    } else if (seenFor && t.value === "if" && role !== "target") {
      flush(i - 1);
      role = "condition";
      from = i + 1;
    }
  }
  flush(b);
  return parts;
}

/** The statement's own expression position(s), as token ranges of tokens a..b. */
function statementPositions(scan: Scan, a: number, b: number, c: Collector): void {
  const tokens = scan.tokens;
  const first = tokens[a];
  const kw = first.kind === "name" ? first.value : first.value === "@" ? "@" : "";
  const colonAfter = (from: number): number => {
    for (let i = from; i <= b; i++) if (tokens[i].depth === 0 && tokens[i].kind === "op" && tokens[i].value === ":") return i;
    return -1;
  };
  switch (kw) {
    case "@":
      c.addTokens(a + 1, b);
      return;
    case "if":
    case "elif":
    case "while":
    case "match": {
      const colon = colonAfter(a + 1);
      if (colon > a + 1) c.addTokens(a + 1, colon - 1);
      return;
    }
    case "for":
    case "async": {
      const colon = colonAfter(a + 1);
      let inAt = -1;
      for (let i = a + 1; i < (colon < 0 ? b + 1 : colon); i++) {
        if (tokens[i].depth === 0 && tokens[i].kind === "name" && tokens[i].value === "in") {
          inAt = i;
          break;
        }
      }
      if (inAt > 0 && colon > inAt + 1) c.addTokens(inAt + 1, colon - 1);
      if (kw === "async" && tokens[a + 1]?.value === "with") withItems(tokens, a + 2, colon, c);
      return;
    }
    case "with":
      withItems(tokens, a + 1, colonAfter(a + 1), c);
      return;
    case "return":
      c.addTokens(a + 1, b);
      return;
    case "yield":
      c.addTokens(tokens[a + 1]?.value === "from" ? a + 2 : a + 1, b);
      return;
    case "assert": {
      let comma = -1;
      for (let i = a + 1; i <= b; i++) {
        if (tokens[i].depth === 0 && tokens[i].kind === "op" && tokens[i].value === ",") {
          comma = i;
          break;
        }
      }
      if (comma < 0) c.addTokens(a + 1, b);
      else {
        c.addTokens(a + 1, comma - 1);
        c.addTokens(comma + 1, b);
      }
      return;
    }
    default:
      break;
  }
  const assigns = assignmentOperators(tokens, a, b);
  if (assigns.length === 0) return;
  c.addTokens(assigns[assigns.length - 1] + 1, b);
  c.addTokens(assigns[0] + 1, b);
}

/** The depth-0 `=` and augmented assignment operators of the simple statement over tokens a..b. */
function assignmentOperators(tokens: Token[], a: number, b: number): number[] {
  const first = tokens[a];
  if (first.kind === "name" && STATEMENT_KEYWORDS.has(first.value)) return [];
  const assigns: number[] = [];
  for (let i = a; i <= b; i++) {
    const t = tokens[i];
    if (t.depth === 0 && t.kind === "op" && (t.value === "=" || AUGMENTED.has(t.value))) assigns.push(i);
  }
  return assigns;
}

/** First token of a one-line suite after a compound header's `:` within tokens a..b, or -1. */
function inlineBody(scan: Scan, a: number, b: number): number {
  const tokens = scan.tokens;
  const first = tokens[a];
  if (first.kind !== "name" || !["if", "elif", "else", "while", "for", "with", "try", "except", "finally", "def", "class", "async"].includes(first.value)) return -1;
  for (let i = a + 1; i < b; i++) {
    const t = tokens[i];
    if (t.depth === 0 && t.kind === "op" && t.value === ":") return i + 1;
  }
  return -1;
}

function withItems(tokens: Token[], from: number, colon: number, c: Collector): void {
  if (colon < 0) return;
  let start = from;
  for (let i = from; i <= colon; i++) {
    const t = tokens[i];
    const atEnd = i === colon || (t.depth === 0 && t.kind === "op" && t.value === ",");
    if (!atEnd) continue;
    let end = i - 1;
    for (let j = start; j < i; j++) {
      if (tokens[j].depth === 0 && tokens[j].kind === "name" && tokens[j].value === "as") {
        end = j - 1;
        break;
      }
    }
    c.addTokens(start, end);
    start = i + 1;
  }
}
