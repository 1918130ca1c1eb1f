// Expression candidates inside brackets and f-strings (candidates.ts, step 2): an f-string field
// holding the error, then each enclosing bracket's item, its parts first (keyword or starred
// value, dict key or value, slice part, comprehension element, iterable or condition).

import type { Scan, Token } from "./scanner.js";
import type { Collector } from "./candidate-collector.js";

export function fstringFields(scan: Scan, a: number, b: number, p: number, message: string, c: Collector): void {
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
export function bracketParts(scan: Scan, a: number, b: number, p: number, c: Collector): void {
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
