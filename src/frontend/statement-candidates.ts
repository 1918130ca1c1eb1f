// A simple statement's own expression positions (candidates.ts, step 2): an assignment's
// right-hand side, a condition, an iterable, `with` items, a `return`/`yield` value, an `assert`
// test or message, a decorator; and where a compound header's one-line suite begins.

import type { Scan, Token } from "./scanner.js";
import type { Collector } from "./candidate-collector.js";

const STATEMENT_KEYWORDS = new Set([
  "if",
  "elif",
  "else",
  "for",
  "while",
  "with",
  "try",
  "except",
  "finally",
  "def",
  "class",
  "async",
  "match",
  "case",
  "del",
  "import",
  "from",
  "raise",
  "global",
  "nonlocal",
  "pass",
]);
const AUGMENTED = new Set(["+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "^=", "|=", "@="]);

/** The statement's own expression position(s), as token ranges of tokens a..b. */
export function statementPositions(scan: Scan, a: number, b: number, c: Collector): void {
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
export function assignmentOperators(tokens: Token[], a: number, b: number): number[] {
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
export function inlineBody(scan: Scan, a: number, b: number): number {
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
