// Candidate spans around a CPython error, smallest first (SPEC §3.1).
//
// Given the scan of a window's current text and the offset of CPython's first error, this lists
// the spans that could be the natural-language block, in the order the search tries them:
//   1. a header ending in `:` with its same-indentation `- ` bullets (one block by rule); when the
//      header is an assignment, first its right-hand side through the last bullet (an expression
//      block, the target stays Python), and when it is a `return` or `yield`, its value through
//      the last bullet (the function returns the block's value); then the whole header with its
//      bullets;
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

import type { LogicalLine, Scan } from "./scanner.js";
import { Collector, type Candidate } from "./candidate-collector.js";
import { bracketParts, fstringFields } from "./bracket-candidates.js";
import { assignmentOperators, inlineBody, statementPositions } from "./statement-candidates.js";
import { bulletBlock, compoundExtent, compoundRoot, enclosingHeaders, isHeader, lineAt, lineStartingOnPhysicalLine, paragraphEnd, previousShallower } from "./suites.js";

export type { Candidate };

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
    else if ((header.head === "return" || header.head === "yield") && header.last > header.first) c.addTokens(header.first + 1, header.last, bullets.end);
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
