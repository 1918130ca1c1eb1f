// The program's index asked part by part (src/frontend/program-index.ts ProgramParts): it gives
// the answers one index of the whole program gives, and parses only the parts a question may
// concern, so that typing a few blocks of a large program does not parse all of it.

import assert from "node:assert/strict";
import { test } from "node:test";
import { indexTree, MODULE_SCOPE, ProgramParts, type IndexPart, type PartSource, type Signature } from "../src/frontend/program-index.js";
import { parsePython } from "../src/frontend/syntax-tree.js";
import { planWindows } from "../src/frontend/windows.js";

const UNIT = (i: number): string => `limit_${i % 7}: int = ${i}


def helper_${i}(values: dict[str, int], *rest: float, label: str = "x", **more: bytes) -> list[str]:
    count: int = 0
    total = sum(values.values())
    return [label]


class Widget${i}(Base):
    size: float

    def __init__(self, name: str, size: int = 0) -> None:
        self.name = name

    async def fetch(self, url: str) -> bytes:
        reply: bytes = b""
        return reply

    @staticmethod
    def \\
            build(kind  # the kind of widget
                  : str) -> "Widget${i}":
        return Widget${i}(kind)


`;

/** A program of `units` units, with NFKC-folded annotations and names defined twice. */
function program(units: number): string {
  const body = Array.from({ length: units }, (_, i) => UNIT(i)).join("");
  return `${body}ｗｉｄｔｈ: float = 1.0\ndef helper_3(other: bytes) -> None:\n    pass\n\n\nwidth = 2\n`;
}

function parts(source: string, onIndex: () => void): PartSource[] {
  return planWindows(source).map((w) => ({
    start: w.start,
    end: w.end,
    index: (): IndexPart => {
      onIndex();
      const text = source.slice(w.start, w.end);
      return indexTree(parsePython(text), text, (o) => w.start + o);
    },
  }));
}

const names = (sigs: Signature[] | undefined): string[] | undefined => sigs?.map((s) => JSON.stringify(s)).sort();

test("asked part by part, the index answers as the whole program's index does", () => {
  const source = program(60);
  const whole = indexTree(parsePython(source), source, (o) => o);
  const lazy = new ProgramParts(
    source,
    parts(source, () => {}),
  );
  for (const [name, sigs] of whole.functions) assert.deepEqual(lazy.functionsNamed(name), sigs, `functions ${name}`);
  for (const [cls, byName] of whole.methods) {
    for (const [name, sigs] of byName) {
      assert.deepEqual(lazy.methodsOf(cls, name), sigs, `methods ${cls}.${name}`);
      const all = [...whole.methods.values()].flatMap((m) => m.get(name) ?? []);
      assert.deepEqual(names(lazy.methodsNamed(name)), names(all), `methods named ${name}`);
    }
  }
  assert.equal(lazy.methodsOf("Widget1", "missing"), undefined);
  assert.equal(lazy.methodsOf("Missing", "__init__"), undefined);
  assert.deepEqual(lazy.functionsNamed("missing"), []);
  let asked = 0;
  for (const [scope, list] of whole.annotations) {
    for (const a of list) {
      for (const offset of [a.offset, a.offset + 1, source.length]) {
        const expected = wholeAnswer(whole, scope, a.name, offset);
        assert.equal(lazy.annotationBefore(scope, a.name, offset), expected, `${scope} ${a.name} before ${offset}`);
        asked++;
      }
    }
  }
  assert.ok(asked > 500, `asked ${asked} questions`);
  assert.equal(lazy.annotationBefore(MODULE_SCOPE, "width", source.length), "float", "an NFKC-folded annotation is found");
  assert.equal(lazy.functionsNamed("helper_3").length, 2, "a name defined twice");
});

test("a question parses only the parts whose text may answer it", () => {
  const source = program(200);
  let indexed = 0;
  const lazy = new ProgramParts(
    source,
    parts(source, () => indexed++),
  );
  const count = planWindows(source).length;
  assert.ok(count > 40, `expected many parts, got ${count}`);
  assert.equal(lazy.functionsNamed("helper_150").length, 1);
  assert.equal(lazy.methodsOf("Widget42", "fetch")?.length, 1);
  assert.equal(lazy.annotationBefore(MODULE_SCOPE, "width", source.length), "float");
  assert.ok(indexed <= 3, `three questions parsed ${indexed} of ${count} parts`);
});

/** The whole index's answer, as the merged index of the parts gave it before parts were asked one by one. */
function wholeAnswer(whole: IndexPart, scope: string, name: string, offset: number): string | null {
  let found: string | null = null;
  for (const a of whole.annotations.get(scope) ?? []) {
    if (a.offset >= offset) break;
    if (a.name === name) found = a.annotation;
  }
  return found;
}
