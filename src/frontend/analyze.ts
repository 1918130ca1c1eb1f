// analyzeSource: source text in, plan out (SPEC §3, §4.2). The frontend's one entry point.
//
// Order of work:
//   1. the source is cut into windows of top-level statements and the window batch goes to the
//      oracle (search.ts), which finds the blocks; a source without blocks ends here, never
//      parsed by tree-sitter;
//   2. adjacent statement blocks merge; each block's scope is read from the placeholder program
//      and the final calls are rendered (sync or awaited);
//   3. the windows holding calls (and any the search did not see compile) go to the oracle for
//      confirmation as rendered, at once; while it answers, each group of windows holding calls is
//      parsed as rewritten and its blocks typed, against an index of the program whose other
//      parts are parsed only when a block's typing names something in them (program-index.ts),
//      each tree dropped once its blocks are typed;
//   4. if the confirmation fails (a bug), the search runs again over the whole file as one window,
//      and if that fails too the whole file becomes one statement block. Never a refusal.
// Directives are read from the rewritten program (valid Python). Checkpoints are not the
// frontend's: the bridge selects them on the rewritten program (SPEC §4.2). Bad input never
// throws: it becomes blocks or diagnostics. Blocks that read as mistyped Python rather than
// natural language are listed as `typos` (prose.ts); the run, not the frontend, refuses them.

import type { CompileOracle } from "./oracle.js";
import type { BlockInfo, Plan } from "./plan.js";
import { LineIndex, lineCount } from "./positions.js";
import { scan } from "./scanner.js";
import { findBlocks, type SearchResult } from "./search.js";
import { mergeStatementBlocks } from "./merge-blocks.js";
import { chooseRuntimeName } from "./render.js";
import { renderProgram, wholeFileBlock, type Rendering } from "./render-program.js";
import { readsAsProse } from "./prose.js";
import { directiveFor, readDirectives, type DirectiveIndex } from "./directives.js";
import { typeBlocks } from "./typing.js";
import type { BlockTyping } from "./block-info.js";
import { planWindows } from "./windows.js";

export interface AnalyzeArgs {
  source: string;
  filename: string;
  displayName: string;
  oracle: CompileOracle;
  /** Capability names a `capability` directive may give (src/capabilities/names.ts). */
  capabilityNames: readonly string[];
  /** Called as each phase ends (for benchmarks and `--stats`): "windows", "searched", "typed", "confirmed", "described". */
  onPhase?: (phase: string) => void;
  /**
   * Called when the first compile of the windows (runs of whole top-level statements) is answered,
   * with those that compile as they stand, which hold no block: [first line, last line] each.
   */
  onCompiledWindows?: (lines: [number, number][]) => void;
  /**
   * Called once the blocks are rendered, before they are typed and the rewritten program is
   * confirmed, with the plan as it will be if the confirmation holds (it always does, barring a
   * bug) but without the blocks' types: their `target` and `output_type` are null. What depends
   * on the rewritten program alone (the checkpoints, run/explain.ts) may start on it.
   */
  onRendered?: (untyped: Plan) => void;
}

const DIRECTIVE_TEXT = /#[ \t]*aiython:/;

export async function analyzeSource(args: AnalyzeArgs): Promise<Plan> {
  const { source, filename, displayName } = args;
  const runtimeName = chooseRuntimeName(source);
  const index = new LineIndex(source);
  const plan: Plan = { filename, displayName, rewritten: null, runtimeName, blocks: [], diagnostics: [], typos: [] };
  if (nullByte(source, index, plan)) return plan;
  const phase = args.onPhase ?? (() => {});
  const windows = planWindows(source);
  phase("windows");
  const report = args.onCompiledWindows;
  const onCompiled =
    report && ((ws: { start: number; end: number }[]) => report(ws.map((w): [number, number] => [index.lineOf(w.start), index.lineOf(Math.max(w.start, w.end - 1))])));
  const search = await findBlocks({ source, filename, oracle: args.oracle, runtimeName, windows, index, onCompiled });
  phase("searched");
  if (search.blocks.length === 0) {
    directivesOf(source, plan, args);
    return plan;
  }
  const { rendering, typing } = await confirmedRendering(args, search, index, runtimeName, phase);
  phase("confirmed");
  describe(plan, rendering, typing, index, args);
  phase("described");
  return plan;
}

/** A null byte is a diagnostic of its own (CPython refuses such a source before parsing). */
function nullByte(source: string, index: LineIndex, plan: Plan): boolean {
  const nul = source.indexOf("\0");
  if (nul < 0) return false;
  const p = index.point(nul);
  plan.diagnostics.push({ line: p.line, column: p.column, message: "source code cannot contain null bytes" });
  return true;
}

function directivesOf(text: string, plan: Plan, args: AnalyzeArgs): DirectiveIndex {
  if (!DIRECTIVE_TEXT.test(text)) return { applied: [] };
  return readDirectives(scan(text, { tokens: false }), new LineIndex(text), plan.diagnostics, args.capabilityNames);
}

/**
 * Steps 2–4: the rendering the oracle confirmed and its blocks' typing (made while the oracle
 * confirms), falling back to a whole-file search, then one block.
 */
async function confirmedRendering(
  args: AnalyzeArgs,
  search: SearchResult,
  index: LineIndex,
  runtimeName: string,
  phase: (name: string) => void,
): Promise<{ rendering: Rendering; typing: BlockTyping[] }> {
  const { source } = args;
  let rendering = renderProgram(source, mergeStatementBlocks(search.blocks, index), search.windows, runtimeName);
  const confirming = confirm(args, rendering, index);
  confirming.catch(() => undefined); // awaited below, once the blocks are typed
  if (args.onRendered) {
    const untyped: Plan = { filename: args.filename, displayName: args.displayName, rewritten: null, runtimeName, blocks: [], diagnostics: [], typos: [] };
    describe(untyped, rendering, null, index, args);
    args.onRendered(untyped);
  }
  const typing = await typeBlocks(source, rendering, nextTurn);
  phase("typed");
  if (await confirming) return { rendering, typing };
  const again = await findBlocks({ source, filename: args.filename, oracle: args.oracle, runtimeName });
  rendering = renderProgram(source, mergeStatementBlocks(again.blocks, index), again.windows, runtimeName);
  if (!(await confirm(args, rendering, index))) {
    rendering = renderProgram(source, wholeFileBlock(source), [{ start: 0, end: source.length, verified: false }], runtimeName);
    if (!(await confirm(args, rendering, index))) throw new Error(`the rewritten program of ${args.filename} does not compile even as one block`);
  }
  return { rendering, typing: await typeBlocks(source, rendering, nextTurn) };
}

/** The plan's blocks, with their types (none when `typing` is null) and directives (read from the rewritten program, valid Python). */
function describe(plan: Plan, rendering: Rendering, typing: BlockTyping[] | null, index: LineIndex, args: AnalyzeArgs): void {
  const { source, displayName } = args;
  const directives = directivesOf(rendering.text, plan, args);
  plan.rewritten = rendering.text;
  plan.blocks = rendering.blocks.map(
    (b, i): BlockInfo => ({
      id: `${displayName}:${i + 1}`,
      index: i + 1,
      statement: source.slice(b.start, b.end),
      kind: b.kind,
      span: index.span(b.start, b.end),
      target: typing ? typing[i].target : null,
      output_type: typing ? typing[i].outputType : null,
      requires_result: b.kind === "expression",
      directive: directiveFor(directives, index.lineOf(b.start)),
      is_async: rendering.scopes[i].isAsync,
      function: rendering.scopes[i].function,
    }),
  );
  plan.typos = plan.blocks.filter((block) => !readsAsProse(block.statement)).map((block) => block.index);
}

/** Lets pending I/O (the oracle's request going out, its answer coming in) run between two pieces of synchronous work. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The last step (SPEC §3.1): the rewritten program must compile and keep the line count. Checked
 * window by window: every window holding a call is compiled as rendered (together with the windows
 * a call spans), and so is every window the search did not see compile; the others are exactly the
 * original text that compiled. Each window starts a top-level statement and compiles alone, so
 * each ends with nothing open, and the whole program compiles.
 */
async function confirm(args: AnalyzeArgs, r: Rendering, original: LineIndex): Promise<boolean> {
  if (lineCount(r.text) !== original.lineCount) return false;
  const texts = r.groups.filter((g) => g.blocks.length > 0 || !g.verified).map((g) => r.text.slice(g.newStart, g.newEnd));
  if (texts.length === 0) return true;
  const verdicts = await args.oracle.check(texts.map((text) => ({ source: text, filename: args.filename })));
  return verdicts.every((v) => v.ok);
}
