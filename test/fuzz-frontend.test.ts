// Property tests (fast-check) of the frontend (SPEC §3.1) on real source: windows of the running
// Python's own standard library files, mutated the ways people break code — a natural-language
// line at some indentation, deleted or inserted characters (brackets, quotes, colons), a line
// duplicated, dedented or cut short — and planned by analyzeSource with the real compile oracle.
// Properties: it never throws and never hangs (a time bound per case), it always answers a plan
// (blocks, or diagnostics), the line count never changes, every plan compiles as CPython runs it,
// and the checkpoints the bridge selects on that program (SPEC §4.2) lie where the user's source
// has them: each one's statement is its span's text there, and no statement block is one.
// FC_SEED=<n> replays a reported failure.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { analyzeSource, type Span } from "../src/frontend/index.js";
import { LineIndex } from "../src/frontend/positions.js";
import { CAPABILITY_NAMES } from "../src/capabilities/names.js";
import { PYTHON } from "./support/run-cli.js";
import { startPythonOracle, type PythonOracle } from "./support/python-oracle.js";
import { mutatedWindow, mutation, standardLibrary } from "./support/source-mutations.js";

const RUNS = 600;
const PER_CASE_MS = 5000;
const WINDOW_LINES = 40;
const seed = process.env.FC_SEED === undefined ? {} : { seed: Number(process.env.FC_SEED) };

let oracle: PythonOracle;
let corpus: string[][];
before(() => {
  oracle = startPythonOracle();
  corpus = standardLibrary(PYTHON);
});
after(async () => {
  await oracle.close();
});

const lineCount = (text: string) => text.split("\n").length;

test(`frontend: ${RUNS} mutated windows of standard-library files always plan, never hang, and every plan compiles`, async () => {
  const seen = { blocks: 0, diagnostics: 0, plain: 0 };
  await fc.assert(
    fc.asyncProperty(fc.nat(), fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (file, start, mutations) => {
      const source = mutatedWindow(corpus, file, start, mutations, WINDOW_LINES);
      const plan = await analyzeSource({
        source,
        filename: "/tmp/fuzz.py",
        displayName: "fuzz.py",
        oracle,
        capabilityNames: CAPABILITY_NAMES,
      });
      seen[plan.diagnostics.length > 0 ? "diagnostics" : plan.blocks.length > 0 ? "blocks" : "plain"] += 1;
      if (plan.diagnostics.length > 0) return; // a malformed directive or a NUL byte: reported, nothing runs
      const program = plan.rewritten ?? source;
      assert.equal(lineCount(program), lineCount(source), "line numbers never move");
      if (plan.rewritten === null) assert.equal(plan.blocks.length, 0);
      const [verdict] = await oracle.check([{ source: program, filename: "/tmp/fuzz.py" }]);
      assert.ok(verdict.ok, `the plan does not compile: ${JSON.stringify(verdict)}\n${program}`);
      const index = new LineIndex(source);
      const textOf = (s: Span) => source.slice(index.offset(s.line, s.column), index.offset(s.end_line, s.end_column));
      const statementBlocks = new Set(plan.blocks.filter((b) => b.kind === "statement").map((b) => JSON.stringify(b.span)));
      for (const c of await oracle.checkpoints(source, plan)) {
        assert.equal(c.statement, textOf(c.span), `${c.id} is not its span's text\n${program}`);
        assert.ok(!statementBlocks.has(JSON.stringify(c.span)), `${c.id} is a statement block`);
      }
    }),
    { numRuns: RUNS, timeout: PER_CASE_MS, ...seed },
  );
  console.log(`plans: ${seen.blocks} with AI blocks, ${seen.plain} valid as they are, ${seen.diagnostics} with diagnostics`);
});
