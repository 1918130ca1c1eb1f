// Golden tests of the frontend: every test/fixtures/frontend/*.py is one behaviour (its first line
// is a comment saying which). For each fixture this runs analyzeSource with a real CPython oracle,
// asks the bridge for the checkpoints of the plan as `--explain` does (SPEC §4.2: the bridge
// selects them on the rewritten program), compares the plan, the rewritten program, the
// checkpoints and both `--explain` renderings with the golden files next to it, and checks the
// invariants every plan must keep:
//   - spans lie inside the source, in order, and blocks do not overlap;
//   - a block's / checkpoint's statement is exactly the source text of its span;
//   - the rewritten program compiles and has the original line count, and holds each block's call
//     on the block's first line;
//   - a source CPython compiles yields zero blocks and no rewritten program; a `valid-*` fixture
//     does compile.
// Regenerate goldens with `UPDATE_GOLDEN=1 node --import tsx --test test/frontend-fixtures.test.ts`
// and review the diff like code.
//
// A fixture can say on its first line that it is an imported module (no top-level checkpoints):
// `# [entryModule=false] ...`.

import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import type { CheckpointInfo } from "../src/bridge/protocol.js";
import { analyzeSource, type Plan, type Span } from "../src/frontend/index.js";
import { renderExplainJson } from "../src/run/explain-json.js";
import { renderExplainText } from "../src/run/explain-text.js";
import { LineIndex, countCodePoints } from "../src/frontend/positions.js";
import { startPythonOracle, type PythonOracle } from "./support/python-oracle.js";
import { CAPABILITY_NAMES } from "../src/capabilities/names.js";

const DIR = new URL("./fixtures/frontend/", import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith(".py"))
  .sort();

let oracle: PythonOracle;
before(() => {
  oracle = startPythonOracle();
});
after(async () => {
  await oracle.close();
});

describe("frontend fixtures", () => {
  test("there are fixtures", () => {
    assert.ok(fixtures.length > 20, `only ${fixtures.length} fixtures found in ${DIR.pathname}`);
  });

  for (const name of fixtures) {
    test(name, async () => {
      const source = readFileSync(new URL(name, DIR), "utf8");
      assert.match(source, /^#/, `${name} must start with a comment saying what it tests`);
      const options = optionsOf(source);
      const plan = await analyzeSource({
        source,
        filename: `/fixtures/${name}`,
        displayName: name,
        oracle,
        capabilityNames: CAPABILITY_NAMES,
      });
      const checkpoints = await oracle.checkpoints(source, plan, { entry: options.entryModule });

      await checkInvariants(name, source, plan, checkpoints);

      const golden = {
        runtimeName: plan.runtimeName,
        blocks: plan.blocks,
        checkpoints,
        diagnostics: plan.diagnostics,
        rewritten: plan.rewritten === null ? null : plan.rewritten.split("\n"),
        explain: JSON.parse(renderExplainJson(plan, checkpoints, { file: name, python: "3.x", config: null })),
      };
      const text = renderExplainText(plan, checkpoints, source, { color: false });
      const jsonPath = new URL(name.replace(/\.py$/, ".golden.json"), DIR);
      const textPath = new URL(name.replace(/\.py$/, ".golden.txt"), DIR);
      if (UPDATE || !existsSync(jsonPath)) {
        writeFileSync(jsonPath, `${JSON.stringify(golden, null, 2)}\n`);
        writeFileSync(textPath, text);
        if (!UPDATE) assert.fail(`wrote missing golden files for ${name}; review them and run again`);
        return;
      }
      assert.deepEqual(golden, JSON.parse(readFileSync(jsonPath, "utf8")), `${name}: plan differs from ${jsonPath.pathname}`);
      assert.equal(text, readFileSync(textPath, "utf8"), `${name}: --explain text differs from ${textPath.pathname}`);
    });
  }
});

function optionsOf(source: string): { entryModule: boolean } {
  const first = source.split("\n", 1)[0];
  return { entryModule: !/\[entryModule=false\]/.test(first) };
}

async function checkInvariants(name: string, source: string, plan: Plan, checkpoints: CheckpointInfo[]): Promise<void> {
  const index = new LineIndex(source);
  const [original] = await oracle.check([{ source, filename: name }]);

  const sliceOf = (span: Span): string => source.slice(index.offset(span.line, span.column), index.offset(span.end_line, span.end_column));
  const inside = (span: Span, what: string): void => {
    for (const [line, column] of [
      [span.line, span.column],
      [span.end_line, span.end_column],
    ]) {
      assert.ok(line >= 1 && line <= index.lineCount, `${name}: ${what} line ${line} outside 1..${index.lineCount}`);
      const text = index.lineText(line);
      assert.ok(column >= 0 && column <= countCodePoints(text, 0, text.length), `${name}: ${what} column ${column} outside line ${line}`);
    }
    assert.ok(span.line < span.end_line || (span.line === span.end_line && span.column < span.end_column), `${name}: ${what} is empty or reversed`);
  };

  let previousEnd = -1;
  plan.blocks.forEach((b, i) => {
    inside(b.span, b.id);
    assert.equal(b.id, `${name}:${i + 1}`);
    assert.equal(b.index, i + 1);
    assert.equal(b.statement, sliceOf(b.span), `${name}: ${b.id} statement is not its span's text`);
    assert.equal(b.requires_result, b.kind === "expression");
    const start = index.offset(b.span.line, b.span.column);
    assert.ok(start >= previousEnd, `${name}: ${b.id} overlaps the block before it`);
    previousEnd = index.offset(b.span.end_line, b.span.end_column);
  });
  for (const c of checkpoints) {
    inside(c.span, c.id);
    assert.equal(c.statement, sliceOf(c.span), `${name}: ${c.id} statement is not its span's text`);
  }

  if (original.ok) {
    assert.equal(plan.blocks.length, 0, `${name}: CPython compiles this source, yet blocks were found`);
    assert.equal(plan.rewritten, null);
  } else {
    assert.ok(!name.startsWith("valid-"), `${name}: a valid-* fixture does not compile: ${JSON.stringify(original.error)}`);
  }
  if (plan.rewritten !== null) {
    const [verdict] = await oracle.check([{ source: plan.rewritten, filename: name }]);
    assert.deepEqual(verdict, { ok: true }, `${name}: the rewritten program does not compile`);
    const rewritten = new LineIndex(plan.rewritten);
    assert.equal(rewritten.lineCount, index.lineCount, `${name}: the rewritten program has another line count`);
    for (const b of plan.blocks) {
      const call = b.is_async ? `(await ${plan.runtimeName}.ablock(${b.index}` : `${plan.runtimeName}.block(${b.index}`;
      assert.ok(rewritten.lineText(b.span.line).includes(call), `${name}: ${b.id}'s call is not on line ${b.span.line}`);
    }
    assert.ok(plan.blocks.length > 0);
  } else {
    assert.equal(plan.blocks.length, 0);
  }
}
