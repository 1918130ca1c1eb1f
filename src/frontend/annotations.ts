// Annotation text as output_type (SPEC §3.2): read from source, never evaluated, and normalised
// the way `ast.unparse` prints it, so equal types have equal text:
//   - string literals are re-quoted like Python's repr (single quotes unless the text holds a
//     single quote and no double quote); adjacent literals are joined; prefixed literals
//     (r, b, f) stay verbatim;
//   - one space after each comma and around `|` and `->`; none inside brackets, around `.`, after a
//     unary sign, or around `=` of a keyword argument;
//   - comments and line breaks inside the annotation disappear.
// `Literal["bug","billing"]` → `Literal['bug', 'billing']`; `dict[str,int]|None` → `dict[str, int] | None`.

import { scan, type Token } from "./scanner.js";

const SIMPLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const memo = new Map<string, string>();

export function normaliseAnnotation(text: string): string {
  if (SIMPLE_NAME.test(text)) return text;
  let out = memo.get(text);
  if (out === undefined) {
    out = normalise(text);
    if (memo.size > 10_000) memo.clear();
    memo.set(text, out);
  }
  return out;
}

function normalise(text: string): string {
  const sc = scan(text);
  const tokens = sc.tokens;
  let out = "";
  let prev: Token | null = null;
  let prevWasUnary = false;
  const commas: number[] = [0]; // commas seen in each open bracket
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === "open") commas.push(0);
    else if (t.kind === "close" && commas.length > 1) commas.pop();
    else if (t.kind === "op" && t.value === ",") {
      commas[commas.length - 1]++;
      // A trailing comma goes, as in ast.unparse, unless it makes a one-element tuple.
      if (tokens[i + 1]?.kind === "close" && commas[commas.length - 1] > 1) continue;
    }
    if (t.kind === "string") {
      let j = i;
      while (j + 1 < tokens.length && tokens[j + 1].kind === "string") j++;
      const literal = joinStrings(text, tokens.slice(i, j + 1));
      out += spaceBefore(prev, t, prevWasUnary) + literal;
      prev = tokens[j];
      prevWasUnary = false;
      i = j;
      continue;
    }
    const value = t.kind === "number" || t.kind === "error" ? text.slice(t.start, t.end) : t.value;
    const unary = t.kind === "op" && (value === "-" || value === "+" || value === "~" || value === "*" || value === "**") && isOperandStart(prev);
    out += spaceBefore(prev, t, prevWasUnary) + value;
    if (t.kind === "op" && !unary && (value === "," || value === ":")) out += " ";
    prev = t;
    prevWasUnary = unary;
  }
  return out.replace(/ +$/, "");
}

/** True when what follows `prev` starts an operand (so a sign there is unary). */
function isOperandStart(prev: Token | null): boolean {
  return prev === null || prev.kind === "open" || (prev.kind === "op" && prev.value !== "...");
}

function spaceBefore(prev: Token | null, t: Token, prevWasUnary: boolean): string {
  if (prev === null || prevWasUnary) return "";
  if (t.kind === "close") return "";
  if (t.kind === "op") {
    if (t.value === "," || t.value === "." || t.value === ":" || t.value === "=") return "";
    if (t.value === "|" || t.value === "->" || (!isOperandStart(prev) && ["-", "+", "*", "/", "&", "**", "//", "%", "@"].includes(t.value))) return " ";
    if (t.value === "...") return prev.kind === "open" || prev.value === "," ? "" : " ";
    return prev.kind === "open" || prev.kind === "op" ? "" : " ";
  }
  if (t.kind === "open") return prev.kind === "name" || prev.kind === "close" || prev.kind === "string" ? "" : prev.kind === "op" && ["|", "->"].includes(prev.value) ? " " : "";
  if (prev.kind === "open") return "";
  if (prev.kind === "op") {
    if (prev.value === "." || prev.value === "=") return "";
    if (prev.value === "|" || prev.value === "->" || ["-", "+", "*", "/", "&", "**", "//", "%", "@"].includes(prev.value)) return " ";
    return "";
  }
  return " ";
}

/** Implicitly concatenated literals as one repr-quoted literal, or verbatim when any has a prefix. */
function joinStrings(text: string, tokens: Token[]): string {
  let value = "";
  for (const t of tokens) {
    const raw = text.slice(t.start, t.end);
    const decoded = t.terminated ? decodePlainLiteral(raw) : null;
    if (decoded === null) return tokens.map((x) => text.slice(x.start, x.end)).join(" ");
    value += decoded;
  }
  return pythonRepr(value);
}

/** The value of a literal without prefix (or with `u`), or null when it cannot be read exactly. */
export function decodePlainLiteral(raw: string): string | null {
  let body = raw;
  if (/^[uU]/.test(body)) body = body.slice(1);
  if (!/^['"]/.test(body)) return null;
  const q = body.startsWith('"""') || body.startsWith("'''") ? body.slice(0, 3) : body[0];
  body = body.slice(q.length, body.length - q.length);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      out += c;
      continue;
    }
    const n = body[++i];
    const simple: Record<string, string> = { "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\n": "" };
    if (n === undefined) return null;
    if (n in simple) out += simple[n];
    else if (n === "\r") {
      if (body[i + 1] === "\n") i++;
    } else if (n === "x" || n === "u" || n === "U") {
      const len = n === "x" ? 2 : n === "u" ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) return null;
      out += String.fromCodePoint(parseInt(hex, 16));
      i += len;
    } else if (/[0-7]/.test(n)) {
      let oct = n;
      while (oct.length < 3 && /[0-7]/.test(body[i + 1] ?? "")) oct += body[++i];
      out += String.fromCodePoint(parseInt(oct, 8));
    } else if (n === "N") {
      return null; // named escapes: kept verbatim rather than guessed
    } else {
      out += `\\${n}`;
    }
  }
  return out;
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\p{Cs}]/u;

/** Python's `repr` of a str. */
export function pythonRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of value) {
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && NON_PRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0) ?? 0;
      out += cp <= 0xff ? `\\x${hex(cp, 2)}` : cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
    } else out += ch;
  }
  return out + quote;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}
