// Annotation text as output_type: normalised like `ast.unparse` prints it (checked against the
// running interpreter), read from source and never evaluated.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import { normaliseAnnotation, pythonRepr } from "../src/frontend/annotations.js";

const PYTHON = process.env.AIYTHON_TEST_PYTHON ?? "python3";

const CASES = [
  'Literal["bug","billing"]',
  "dict[str,int]|None",
  "Optional[ int ]",
  'list[dict[str, "Ticket"]]',
  "tuple[int, ...]",
  "Callable[[int, str], bool]",
  "Literal[-1, 2]",
  'Annotated[str, Field(gt=0, description="x")]',
  "typing.Literal['a', \"it's\"]",
  'Literal["a" "b"]',
  "Literal['say \"hi\"']",
  'Literal["tab\\there", "é", \'😀\']',
  "list[int]|dict[str,list[int|None]]",
  "Literal[True, None, 1.5]",
  "x.y.Z[int]",
];

describe("annotations", () => {
  test("normalised text equals ast.unparse for common annotations", () => {
    const expected = JSON.parse(
      execFileSync(PYTHON, ["-c", "import ast, json, sys\nprint(json.dumps([ast.unparse(ast.parse(a, mode='eval')) for a in json.load(sys.stdin)]))"], {
        input: JSON.stringify(CASES),
        encoding: "utf8",
      }),
    ) as string[];
    assert.deepEqual(CASES.map(normaliseAnnotation), expected);
  });

  test("the README example", () => {
    assert.equal(normaliseAnnotation('Literal["bug","billing"]'), "Literal['bug', 'billing']");
  });

  test("line breaks and comments inside an annotation disappear", () => {
    assert.equal(normaliseAnnotation('Literal[\n    "a",  # first\n    "b",\n]'), "Literal['a', 'b']");
  });

  test("prefixed literals stay verbatim", () => {
    assert.equal(normaliseAnnotation('Literal[b"x"]'), 'Literal[b"x"]');
  });

  test("pythonRepr picks quotes and escapes like repr()", () => {
    assert.equal(pythonRepr("it's"), '"it\'s"');
    assert.equal(pythonRepr(`both ' and "`), `'both \\' and "'`);
    assert.equal(pythonRepr("a\nb\\"), "'a\\nb\\\\'");
    assert.equal(pythonRepr("\u0007"), "'\\x07'");
  });
});
