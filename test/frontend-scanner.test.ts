// The tolerant scanner: on valid Python its logical lines are CPython's (checked against the
// running interpreter's `tokenize`); on broken text it degrades line by line as documented.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import { LineIndex } from "../src/frontend/positions.js";
import { scan } from "../src/frontend/scanner.js";

const PYTHON = process.env.AIYTHON_TEST_PYTHON ?? "python3";

/** Starts (line, column) of CPython's logical lines, from `tokenize`. */
function pythonLogicalLines(source: string): [number, number][] {
  const program = `
import io, json, sys, tokenize
src = sys.stdin.read()
starts, expect = [], True
for t in tokenize.generate_tokens(io.StringIO(src).readline):
    if t.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
        continue
    if t.type == tokenize.NEWLINE:
        expect = True
        continue
    if expect:
        starts.append(t.start)
        expect = False
print(json.dumps(starts))
`;
  return JSON.parse(execFileSync(PYTHON, ["-c", program], { input: source, encoding: "utf8" })) as [number, number][];
}

function ourLogicalLines(source: string): [number, number][] {
  const index = new LineIndex(source);
  return scan(source).lines.map((l) => {
    const p = index.point(l.start);
    return [p.line, p.column];
  });
}

const VALID = `x = f"{a!r:>{width}} {b['k']}" + 'é'  # comment
if x:
    y = (1,
  2)  # continuation lines inside brackets ignore indentation
    z = \\
        3
s = """triple
# not a comment
'''"""
t = rb'\\d' + Rb"x" + u'y'
d = {k: v for k, v in {}.items()}; e = [
    # a comment inside brackets
    1]
async def f():
    await g()
if y:
\tw = 1
lam = lambda q: q
q = f'{x = }' + f"""{
  y}"""
n = 1_000 + 0x_ff + 1e-3j + .5
`;

describe("scanner", () => {
  test("logical lines of valid Python are CPython's", () => {
    assert.deepEqual(ourLogicalLines(VALID), pythonLogicalLines(VALID));
  });

  test("the token-free scan finds the same lines, heads and header colons", () => {
    const full = scan(VALID);
    const light = scan(VALID, { tokens: false });
    assert.equal(light.tokens.length, 0);
    assert.deepEqual(
      light.lines.map((l) => [l.start, l.end, l.indent, l.head, l.colon]),
      full.lines.map((l) => [l.start, l.end, l.indent, l.head, l.colon]),
    );
    assert.deepEqual(light.comments, full.comments);
  });

  test("f-string replacement fields record their expression spans", () => {
    const src = `f"{a!r:>{width}} {b['k']} {{literal}} {c=}"`;
    const [token] = scan(src).tokens;
    assert.equal(token.kind, "string");
    assert.deepEqual(
      token.fields?.map((f) => src.slice(f.start, f.end)),
      ["a", "width", "b['k']", "c"],
    );
  });

  test("a single-quoted string stops, unterminated, at the line break", () => {
    const src = "reply = write the customer's reply\nprint(reply)\n";
    const sc = scan(src);
    const str = sc.tokens.find((t) => t.kind === "string");
    assert.equal(src.slice(str?.start, str?.end), "'s reply");
    assert.equal(str?.terminated, false);
    assert.equal(sc.lines.length, 2);
  });

  test("an unmatched closing bracket is an error token and changes no depth", () => {
    const sc = scan("x = 1)\ny = 2\n");
    assert.deepEqual(
      sc.tokens.filter((t) => t.kind === "error").map((t) => t.value),
      [")"],
    );
    assert.equal(sc.lines.length, 2);
  });

  test("a statement keyword at a line start closes brackets left open by natural language", () => {
    const src = "ranked = sort the tickets (newest first\ndef show(items):\n    return items\n";
    const sc = scan(src);
    assert.deepEqual(
      sc.lines.map((l) => l.head),
      ["ranked", "def", "return"],
    );
  });

  test("an open bracket still continues the line over ordinary continuation lines", () => {
    const sc = scan("x = (1 +\nfor_each)\n");
    assert.equal(sc.lines.length, 1);
  });

  test("comments: own line or after code, and their bracket depth", () => {
    const src = "# top\nx = [  # after code\n    # inside\n    1]\n";
    assert.deepEqual(
      scan(src).comments.map((c) => [src.slice(c.start, c.end), c.ownLine, c.depth]),
      [
        ["# top", true, 0],
        ["# after code", false, 1],
        ["# inside", true, 1],
      ],
    );
  });

  test("indentation: tabs go to the next multiple of 8", () => {
    const sc = scan("if x:\n\ty = 1\n  \tz = 2\n");
    assert.deepEqual(
      sc.lines.map((l) => l.indent),
      [0, 8, 8],
    );
  });

  test("non-ASCII identifiers are names", () => {
    const sc = scan("résumé = café\n");
    assert.deepEqual(
      sc.tokens.map((t) => [t.kind, t.value]),
      [
        ["name", "résumé"],
        ["op", "="],
        ["name", "café"],
      ],
    );
  });

  test("carriage returns end lines like line feeds", () => {
    assert.equal(scan("a = 1\rb = 2\r\nc = 3").lines.length, 3);
  });
});
