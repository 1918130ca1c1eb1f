// The rule that tells natural language from mistyped Python (src/frontend/prose.ts; README, "A
// typo stays a SyntaxError"), on the spans CPython refuses: a word after a word or a number on one
// line, or a character outside ASCII that Python cannot read, is natural language; anything else
// reads as a typo. Every AI block of the frontend fixtures that is natural language stays one.

import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import { readsAsProse } from "../src/frontend/prose.js";

const PROSE = [
  "classify this ticket",
  "summarize the routed tickets in one sentence",
  "pick a number between 1 and 10",
  "x = 5 apples",
  "while there are still unprocessed items:",
  "return do the following:\n- a\n- b",
  "总结一下这些工单，用一句话",
  "write the customer’s reply",
  "retrun x", // two words: the rule leans towards natural language
];

const TYPOS = [
  'prnt("b"',
  "if x = 2:",
  'print "hello"',
  "def greet(name)\n    pass",
  "def greet(name):\nprint(name)",
  "else if x > 3:",
  "x = [1, 2,, 3]",
  "for i in range(3)",
  "x = 1 2",
];

test("natural language reads as prose", () => {
  for (const text of PROSE) assert.equal(readsAsProse(text), true, text);
});

test("mistyped Python does not", () => {
  for (const text of TYPOS) assert.equal(readsAsProse(text), false, text);
});

test("a comment is not words; keywords are not words", () => {
  assert.equal(readsAsProse("x = (1 +  # add the rest later"), false);
  assert.equal(readsAsProse("if not x in y"), false);
});

test("the frontend fixtures' blocks are natural language, but for the three that are typos of Python", () => {
  const dir = new URL("./fixtures/frontend/", import.meta.url);
  const typos: string[] = [];
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith(".golden.json"))) {
    const golden = JSON.parse(fs.readFileSync(new URL(name, dir), "utf8"));
    for (const block of golden.blocks) if (!readsAsProse(block.statement)) typos.push(name.replace(".golden.json", ""));
  }
  assert.deepEqual(typos.sort(), ["bad-indentation", "bad-indentation-unindent", "print-statement-python2"]);
});
