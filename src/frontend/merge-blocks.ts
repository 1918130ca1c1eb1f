// Adjacent statement blocks become one block (one model invocation, SPEC §3.1): two statement
// blocks merge when they start at the same column on different lines and only blank lines and
// ordinary comments lie between them. Any Python line, a directive comment (`# aiython: ...`) or
// a change of indentation keeps them apart.

import type { LineIndex } from "./positions.js";
import type { FoundBlock } from "./search.js";

const DIRECTIVE = /^[ \t\f]*#[ \t]*aiython:/;

export function mergeStatementBlocks(blocks: FoundBlock[], index: LineIndex): FoundBlock[] {
  const text = index.text;
  const out: FoundBlock[] = [];
  for (const b of blocks) {
    const prev = out[out.length - 1];
    if (
      prev &&
      prev.kind === "statement" &&
      b.kind === "statement" &&
      index.lineOf(prev.end) < index.lineOf(b.start) &&
      index.point(prev.start).column === index.point(b.start).column &&
      onlyBlankOrComments(text.slice(prev.end, b.start))
    ) {
      out[out.length - 1] = { start: prev.start, end: b.end, kind: "statement" };
    } else {
      out.push(b);
    }
  }
  return out;
}

/** The text between two blocks: the rest of the first block's line, then whole lines. */
function onlyBlankOrComments(between: string): boolean {
  const lines = between.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^[ \t\f]*$/.test(line)) continue;
    if (i > 0 && DIRECTIVE.test(line)) return false; // a directive line (one after code is a plain comment)
    if (/^[ \t\f]*#/.test(line)) continue;
    return false;
  }
  return true;
}
