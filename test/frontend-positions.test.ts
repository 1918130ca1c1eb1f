// Positions: UTF-16 offsets ⇄ (1-based line, code-point column), CPython's line breaks.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { LineIndex, countCodePoints, lineCount } from "../src/frontend/positions.js";

describe("positions", () => {
  test("columns count code points, not UTF-16 units", () => {
    const text = "a = '😀é' + x\n";
    const index = new LineIndex(text);
    const x = text.indexOf("x");
    assert.equal(x, 12); // 😀 is two UTF-16 units
    assert.deepEqual(index.point(x), { line: 1, column: 11 });
    assert.equal(index.offset(1, 11), x);
  });

  test("round trip on every offset of a mixed text", () => {
    const text = "é😀\r\nb\r😀😀x\n\nlast";
    const index = new LineIndex(text);
    for (let o = 0; o <= text.length; o++) {
      if (o > 0 && o < text.length && text.charCodeAt(o) >= 0xdc00 && text.charCodeAt(o) <= 0xdfff) continue; // inside a pair
      if (text[o - 1] === "\r" && text[o] === "\n") continue; // inside a \r\n break
      const p = index.point(o);
      assert.equal(index.offset(p.line, p.column), o, `offset ${o} → ${JSON.stringify(p)}`);
    }
  });

  test("line breaks are \\n, \\r\\n and a lone \\r; a final break opens no line", () => {
    const index = new LineIndex("a\r\nb\rc\nd\n");
    assert.equal(index.lineCount, 4);
    assert.deepEqual(
      [1, 2, 3, 4].map((l) => index.lineText(l)),
      ["a", "b", "c", "d"],
    );
    assert.equal(new LineIndex("a\nb").lineCount, 2);
  });

  test("lineCount counts lines as the line index does, on any mix of breaks", () => {
    for (const text of ["", "\n", "\r\n", "\r", "a", "a\n", "a\r", "\n\n", "a\nb", "a\r\n\rb\n"]) {
      assert.equal(lineCount(text), new LineIndex(text).lineCount, JSON.stringify(text));
    }
    const texts = fc.array(fc.constantFrom("a", "é", "\n", "\r", "\r\n", "\u2028", " ")).map((parts) => parts.join(""));
    fc.assert(
      fc.property(texts, (text) => lineCount(text) === new LineIndex(text).lineCount),
      { numRuns: 2000 },
    );
  });

  test("offsets clamp to the line's content", () => {
    const index = new LineIndex("ab\ncd\n");
    assert.equal(index.offset(1, 99), 2);
    assert.equal(index.offset(9, 0), 6);
  });

  test("spans", () => {
    const text = "x = 1\ny = café + z\n";
    const index = new LineIndex(text);
    assert.deepEqual(index.span(text.indexOf("café"), text.indexOf("z") + 1), { line: 2, column: 4, end_line: 2, end_column: 12 });
    assert.equal(countCodePoints("😀a😀", 0, 5), 3);
  });
});
