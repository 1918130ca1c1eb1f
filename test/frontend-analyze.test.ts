// analyzeSource behaviours beyond the one-behaviour fixtures: line endings, null bytes, runtime
// names, several windows (batching, blocks merged across a window boundary), tokenizer errors
// that hide earlier parse errors, the fallback when the confirmation fails, and a seeded fuzz run
// that checks the plan invariants on mangled programs.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { analyzeSource, type CompileItem, type CompileOracle, type CompileVerdict, type Plan } from "../src/frontend/index.js";
import { LineIndex } from "../src/frontend/positions.js";
import { PARSE_CHUNK } from "../src/frontend/windows.js";
import { startPythonOracle, type PythonOracle } from "./support/python-oracle.js";
import { CAPABILITY_NAMES } from "../src/capabilities/names.js";

let oracle: PythonOracle;
before(() => {
  oracle = startPythonOracle();
});
after(async () => {
  await oracle.close();
});

function analyze(source: string, options: { oracle?: CompileOracle } = {}): Promise<Plan> {
  return analyzeSource({
    source,
    filename: "/tmp/prog.py",
    displayName: "prog.py",
    oracle: options.oracle ?? oracle,
    capabilityNames: CAPABILITY_NAMES,
  });
}

async function assertSound(source: string, plan: Plan): Promise<void> {
  const index = new LineIndex(source);
  let previous = 0;
  for (const b of plan.blocks) {
    const start = index.offset(b.span.line, b.span.column);
    const end = index.offset(b.span.end_line, b.span.end_column);
    assert.ok(start >= previous && end > start, `block ${b.id} overlaps or is empty`);
    assert.equal(source.slice(start, end), b.statement);
    previous = end;
  }
  if (plan.rewritten !== null) {
    assert.equal(new LineIndex(plan.rewritten).lineCount, index.lineCount, "line count changed");
    const [v] = await oracle.check([{ source: plan.rewritten, filename: "prog.py" }]);
    assert.deepEqual(v, { ok: true }, `rewritten program does not compile:\n${plan.rewritten}`);
  } else {
    const [v] = await oracle.check([{ source, filename: "prog.py" }]);
    assert.equal(v.ok, true, "no rewrite, yet the source does not compile");
  }
}

describe("analyzeSource", () => {
  test("CRLF line endings survive around blocks and line numbers hold", async () => {
    const source = "x = 1\r\nsummary = say hello\r\nprint(summary)\r\n";
    const plan = await analyze(source);
    assert.equal(plan.rewritten, "x = 1\r\nsummary = __aiython__.block(1)\r\nprint(summary)\r\n");
    assert.deepEqual(plan.blocks[0].span, { line: 2, column: 10, end_line: 2, end_column: 19 });
    await assertSound(source, plan);
  });

  test("a null byte is a diagnostic, never a block", async () => {
    const plan = await analyze("x = 1\ny = 2\0\n");
    assert.deepEqual(plan.diagnostics, [{ line: 2, column: 5, message: "source code cannot contain null bytes" }]);
    assert.equal(plan.blocks.length, 0);
    assert.equal(plan.rewritten, null);
  });

  test("the runtime name avoids every name the source mentions", async () => {
    const plan = await analyze("__aiython__ = 1\n__aiython_1__ = 2\nanswer = name a planet\n");
    assert.equal(plan.runtimeName, "__aiython_2__");
    assert.match(plan.rewritten ?? "", /answer = __aiython_2__\.block\(1/);
  });

  test("valid source: no blocks, no rewrite; the bridge checkpoints it as it is", async () => {
    const source = "def f(x: int) -> int:\n    y = x + 1\n    return y\n\nprint(f(1))\n";
    const plan = await analyze(source);
    assert.deepEqual([plan.blocks, plan.rewritten], [[], null]);
    const checkpoints = await oracle.checkpoints(source, plan);
    assert.deepEqual(
      checkpoints.map((c) => c.statement),
      ["def f(x: int) -> int:\n    y = x + 1\n    return y", "y = x + 1", "return y", "print(f(1))"],
    );
  });

  test("imported module: no top-level checkpoints; statement blocks are never checkpoints", async () => {
    const source = "import os\n\ndef f():\n    list the files here\n    n = count the files\n    return n\n";
    const plan = await analyze(source);
    assert.deepEqual(
      (await oracle.checkpoints(source, plan, { entry: false })).map((c) => c.statement),
      ["n = count the files", "return n"],
    );
    assert.deepEqual(
      plan.blocks.map((b) => [b.kind, b.statement]),
      [
        ["statement", "list the files here"],
        ["expression", "count the files"],
      ],
    );
  });

  test("blocks in several windows are found in a few batched round trips", async () => {
    const filler = (n: number): string => Array.from({ length: 150 }, (_, i) => `def f${n}_${i}(a, b):\n    return a + b * ${i}\n\n`).join("");
    const source = `${filler(1)}first = name a color\n\n${filler(2)}second = name an animal\n\n${filler(3)}def g():\n    third = name a city\n    return third\n`;
    assert.ok(source.length > 3 * 4096);
    const before = oracle.requests;
    const plan = await analyze(source);
    assert.deepEqual(
      plan.blocks.map((b) => b.statement),
      ["name a color", "name an animal", "name a city"],
    );
    assert.ok(oracle.requests - before <= 6, `took ${oracle.requests - before} round trips`);
    await assertSound(source, plan);
  });

  test("a file larger than several parse chunks is indexed whole: the signatures and annotations of every chunk type its blocks", async () => {
    // Each unit is 4 lines: a function whose parameter's type names the unit, and a module-level annotation.
    const unit = (i: number): string => `def f_${i}(a: T${i}) -> str:\n    b = a\n    return str(b)\nv_${i}: U${i} = f_${i}(${i})\n`;
    const units = Math.ceil((2.5 * PARSE_CHUNK) / unit(99999).length);
    const body = Array.from({ length: units }, (_, i) => unit(i)).join("");
    const chosen = [0, Math.floor(units / 2), units - 1];
    const calls = chosen.map((i) => `f_${i}(name value ${i})`).join(" + ");
    const source = `${body}late: str = name the last value\nv_${chosen[1]} = pick one\nx = ${calls}\n`;
    const plan = await analyze(source);
    assert.deepEqual(
      plan.blocks.map((b) => [b.statement, b.target, b.output_type, b.span.line]),
      [
        ["name the last value", "late", "str", units * 4 + 1],
        ["pick one", `v_${chosen[1]}`, `U${chosen[1]}`, units * 4 + 2],
        ...chosen.map((i) => [`name value ${i}`, null, `T${i}`, units * 4 + 3]),
      ],
    );
  });

  test("types come from annotations and signatures in other windows of the file", async () => {
    const filler = Array.from({ length: 300 }, (_, i) => `def helper_${i}(a, b):\n    return a + b * ${i}\n\n`).join("");
    const source = `limit: int\n\ndef consume(value: float, *, label: str) -> None:\n    print(label, value)\n\n${filler}limit = a sensible limit\nconsume(a ratio, label=a short label)\n`;
    assert.ok(source.length > 2 * 4096);
    const plan = await analyze(source);
    assert.deepEqual(
      plan.blocks.map((b) => [b.statement, b.target, b.output_type]),
      [
        ["a sensible limit", "limit", "int"],
        ["a ratio", null, "float"],
        ["a short label", null, "str"],
      ],
    );
    await assertSound(source, plan);
  });

  test("adjacent top-level statement blocks merge even across a window boundary", async () => {
    const filler = Array.from({ length: 120 }, (_, i) => `value_${i} = ${i}\n`).join("");
    const source = `${filler}\nsort the values from largest to smallest\n\nthen print them one per line\nprint("end")\n`;
    const plan = await analyze(source);
    assert.deepEqual(
      plan.blocks.map((b) => b.statement),
      ["sort the values from largest to smallest\n\nthen print them one per line"],
    );
    await assertSound(source, plan);
  });

  test("a tokenizer error later in a window does not hide an earlier parse error", async () => {
    // CPython reports `5pm` (invalid decimal literal) instead of the first line's "invalid syntax".
    const source = "greeting = say good morning\nx = 1\ny = call me after 5pm\n";
    const plan = await analyze(source);
    assert.deepEqual(
      plan.blocks.map((b) => b.statement),
      ["say good morning", "call me after 5pm"],
    );
    await assertSound(source, plan);
  });

  test("an unterminated triple quote in natural language still yields a valid program", async () => {
    const source = 'x = 1\nnote = explain what """ means in Python\nprint(note)\ndef f():\n    return 2\n';
    const plan = await analyze(source);
    assert.ok(plan.blocks.length >= 1);
    assert.ok(plan.blocks[0].statement.startsWith("explain what"));
    await assertSound(source, plan);
  });

  test("a line continuation opening or ending the file becomes part of the last-resort block (found by test/fuzz-frontend.test.ts)", async () => {
    for (const source of ["\\\n    x = 1\ny = 2\n", "x = 1\nif x:\n    y = 2 \\\n", "sort the items\n\n\\\n"]) {
      await assertSound(source, await analyze(source));
    }
  });

  test("when the confirmation fails, the search reruns over the whole file (never a refusal)", async () => {
    let lied = false;
    const liar: CompileOracle = {
      async check(items: CompileItem[]): Promise<CompileVerdict[]> {
        const verdicts = await oracle.check(items);
        // The first compile of a rendered final call (index 1, not the search's placeholder 0).
        if (!lied && items.some((i) => i.source.includes("__aiython__.block(1"))) {
          lied = true;
          return verdicts.map(() => ({ ok: false, error: { message: "invalid syntax", line: 1, column: 0, end_line: null, end_column: null } }));
        }
        return verdicts;
      },
    };
    const source = "x = 1\nsummary = say hello\nprint(summary)\n";
    const plan = await analyze(source, { oracle: liar });
    assert.ok(lied);
    assert.deepEqual(
      plan.blocks.map((b) => b.statement),
      ["say hello"],
    );
    await assertSound(source, plan);
  });

  test("fuzz: mangled programs always give a sound plan", async () => {
    const base = `import json


class Store:
    """Keeps items."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.items: list[dict] = []

    def load(self) -> int:
        with open(self.path) as handle:
            self.items = json.load(handle)
        return len(self.items)

    async def refresh(self, limit: int = 10) -> list[str]:
        names = [item["name"] for item in self.items if item.get("ok")]
        return names[:limit]


def main(argv: list[str]) -> int:
    store = Store(argv[0])
    try:
        count = store.load()
    except OSError as error:
        print(f"cannot read {store.path}: {error}")
        return 1
    for i in range(count):
        if i % 2:
            print(i, {"k": [1, 2, (3, 4)]})
    return 0
`;
    const words = ["the", "user's", "list", "(", ")", "[", "]", "{", ":", "summarize", "5pm", '"', "'''", "\n", "    ", "-", "return", "if", "for", "=", ",", "#", "await", "\\"];
    let seed = 20240601;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 40; round++) {
      let source = base;
      const edits = 1 + random(4);
      for (let e = 0; e < edits; e++) {
        const at = random(source.length);
        const insert = Array.from({ length: 1 + random(4) }, () => words[random(words.length)]).join(" ");
        source = random(5) === 0 ? source.slice(0, at) + source.slice(at + random(12)) : `${source.slice(0, at)} ${insert} ${source.slice(at)}`;
      }
      try {
        const plan = await analyze(source);
        assert.equal(plan.diagnostics.length, 0);
        await assertSound(source, plan);
      } catch (error) {
        assert.fail(`fuzz round ${round} failed on:\n${source}\n${(error as Error).stack}`);
      }
    }
  });
});
