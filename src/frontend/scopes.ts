// Enclosing scopes of blocks: does a block sit in an `async def` body (so it renders as
// `(await NAME.ablock(N))()`, SPEC §4.3), and which function holds it.
//
// Computed from the scanner over the placeholder program (valid Python), whose logical lines and
// indentation are exactly CPython's, because the call shape must be known before the final
// compile and before tree-sitter has seen the rewritten text. Rules:
//   - the scope of a statement is the nearest enclosing `def`/`async def`/`class` header (the
//     closest earlier logical line with less indentation, repeatedly); decorators, default values
//     and annotations on a header line belong to the scope around it, a one-line body
//     (`async def f(): return ...`) to the function;
//   - inside a `lambda` body the scope is the lambda (never async); inside a generator expression
//     the block stays synchronous (an `await` there would turn it into an async generator);
//     other comprehensions keep the function's scope (PEP 530 allows `await` there);
//   - `function` is the CPython `co_qualname` of the innermost def or lambda
//     (`Outer.method`, `outer.<locals>.inner`, `f.<locals>.<lambda>`), null at module or class level;
//   - `awaitAllowed`: the program's own `await` compiles there (an `async def` body, its
//     comprehensions and generator expressions included, never a lambda or a nested class body).

import type { LogicalLine, Scan, Token } from "./scanner.js";
import { lineAt } from "./suites.js";

export interface BlockScope {
  isAsync: boolean;
  awaitAllowed: boolean;
  function: string | null;
}

interface Header {
  kind: "def" | "async def" | "class";
  name: string;
}

export function blockScopes(sc: Scan, offsets: number[]): BlockScope[] {
  return offsets.map((offset) => scopeAt(sc, offset));
}

function scopeAt(sc: Scan, offset: number): BlockScope {
  const { lines } = sc;
  if (lines.length === 0) return { isAsync: false, awaitAllowed: false, function: null };
  const li = lineAt(lines, offset);
  const line = lines[li];
  const chain: Header[] = [];
  const own = header(sc, line);
  if (own && offset > headerColon(sc, line)) chain.push(own);
  let indent = line.indent;
  for (let j = li - 1; j >= 0 && indent > 0; j--) {
    if (lines[j].indent >= indent) continue;
    indent = lines[j].indent;
    const h = header(sc, lines[j]);
    if (h) chain.push(h);
  }
  chain.reverse(); // outermost first
  const inLine = withinLine(sc, line, offset);
  const names: string[] = [];
  chain.forEach((h, i) => {
    names.push(h.name);
    if (h.kind !== "class" && (i < chain.length - 1 || inLine.lambda)) names.push("<locals>");
  });
  if (inLine.lambda) names.push("<lambda>");
  const innermost = chain[chain.length - 1];
  const awaitAllowed = !inLine.lambda && innermost?.kind === "async def";
  const isAsync = awaitAllowed && !inLine.generator;
  const inFunction = inLine.lambda || (innermost !== undefined && innermost.kind !== "class");
  let qual = names;
  if (!inLine.lambda && innermost?.kind === "class") qual = [];
  return { isAsync, awaitAllowed, function: inFunction && qual.length > 0 ? qual.join(".") : null };
}

function header(sc: Scan, line: LogicalLine): Header | null {
  const t = sc.tokens;
  const a = t[line.first];
  if (a.kind !== "name") return null;
  if (a.value === "def" || a.value === "class") {
    const name = t[line.first + 1];
    return name && name.kind === "name" ? { kind: a.value, name: name.value } : null;
  }
  if (a.value === "async" && t[line.first + 1]?.value === "def") {
    const name = t[line.first + 2];
    return name && name.kind === "name" ? { kind: "async def", name: name.value } : null;
  }
  return null;
}

/** Offset of a header line's suite colon (first `:` at depth 0 after the name). */
function headerColon(sc: Scan, line: LogicalLine): number {
  for (let i = line.first; i <= line.last; i++) {
    const t = sc.tokens[i];
    if (t.depth === 0 && t.kind === "op" && t.value === ":") return t.start;
  }
  return line.end;
}

/** Whether `offset` lies in a lambda body or a generator expression on its logical line. */
function withinLine(sc: Scan, line: LogicalLine, offset: number): { lambda: boolean; generator: boolean } {
  const tokens = sc.tokens;
  let lambda = false;
  let generator = false;
  const open: number[] = [];
  for (let i = line.first; i <= line.last && tokens[i].start < offset; i++) {
    const t = tokens[i];
    if (t.kind === "open") open.push(i);
    else if (t.kind === "close") open.pop();
    else if (t.kind === "name" && t.value === "lambda" && lambdaBodyHolds(tokens, i, line.last, offset)) lambda = true;
  }
  for (const o of open) {
    if (tokens[o].value === "(" && hasForAtDepth(tokens, o, line.last)) generator = true;
  }
  return { lambda, generator };
}

/** The lambda at token `at` has its `:` before `offset` and its body still runs at `offset`. */
function lambdaBodyHolds(tokens: Token[], at: number, last: number, offset: number): boolean {
  const depth = tokens[at].depth;
  let i = at + 1;
  while (i <= last && !(tokens[i].depth === depth && tokens[i].kind === "op" && tokens[i].value === ":")) i++;
  if (i > last || tokens[i].end > offset) return false;
  for (let j = i + 1; j <= last; j++) {
    const t = tokens[j];
    if (t.start >= offset) return true;
    // The body ends at a closing bracket around the lambda, or at a `,` or `;` beside it.
    if (t.depth < depth) return false;
    if (t.depth === depth && t.kind === "op" && (t.value === "," || t.value === ";")) return false;
  }
  return true;
}

function hasForAtDepth(tokens: Token[], open: number, last: number): boolean {
  const depth = tokens[open].depth + 1;
  for (let i = open + 1; i <= last; i++) {
    const t = tokens[i];
    if (t.depth < depth) return false;
    if (t.depth === depth && t.kind === "name" && t.value === "for") return true;
  }
  return false;
}
