// analyzeSource: source text in, plan out (SPEC §3, §4.2). The frontend's one entry point.
//
// Order of work, arranged so that the Python compile oracle and the JS side (tree-sitter, the
// statement index) run at the same time on a large file:
//   1. the source is cut into windows of top-level statements and the window batch goes to the
//      oracle (search.ts); meanwhile tree-sitter parses the source once, in chunks of whole
//      windows, and each window's statements are indexed from its chunk's tree (from a parse of
//      the window alone where that tree is not clean there, made once that index is needed),
//      yielding between windows so the search's rounds interleave; the trees are dropped, the
//      index kept;
//   2. the search finishes (on a large file, usually while step 1 still indexes); adjacent
//      statement blocks merge; each block's scope is read from the placeholder program and the
//      final calls are rendered (sync or awaited);
//   3. the windows holding calls (and any the search did not see compile) go to the oracle for
//      confirmation as rendered, at once; once step 1 is done, their rewritten text is parsed and
//      indexed while the oracle answers (if it still has not);
//   4. if the confirmation fails (a bug), the search runs again over the whole file as one window,
//      and if that fails too the whole file becomes one statement block. Never a refusal.
// Types and directives are read from the rewritten program (valid Python). Checkpoints are not the
// frontend's: the bridge selects them on the rewritten program (SPEC §4.2). Bad input never
// throws: it becomes blocks or diagnostics. Blocks that read as mistyped Python rather than
// natural language are listed as `typos` (prose.ts); the run, not the frontend, refuses them.

import type { CompileOracle } from "./oracle.js";
import type { BlockInfo, Plan } from "./plan.js";
import { LineIndex, lineCount } from "./positions.js";
import { scan } from "./scanner.js";
import { findBlocks, type SearchResult } from "./search.js";
import { mergeStatementBlocks } from "./merge-blocks.js";
import { chooseRuntimeName, offsetMap, type OffsetMap } from "./render.js";
import { renderProgram, wholeFileBlock, type Group, type Rendering } from "./render-program.js";
import { parsePython, type SyntaxTree } from "./syntax-tree.js";
import { describeBlocks, type CallSite } from "./block-info.js";
import { readsAsProse } from "./prose.js";
import { directiveFor, readDirectives, type DirectiveIndex } from "./directives.js";
import { indexTree, mergeParts, type IndexPart } from "./program-index.js";
import { planWindows, type Window } from "./windows.js";
import { availableParallelism } from "node:os";
import { indexWindows, startIndexWorker, usesIndexWorker, type Parsed } from "./parallel-index.js";

export interface AnalyzeArgs {
  source: string;
  filename: string;
  displayName: string;
  oracle: CompileOracle;
  /** Capability names a `capability` directive may give (src/capabilities/names.ts). */
  capabilityNames: readonly string[];
  /** Called as each phase ends (for benchmarks and `--stats`): "windows", "parsed", "searched", "confirmed", "described". */
  onPhase?: (phase: string) => void;
  /**
   * Called when the first compile of the windows (runs of whole top-level statements) is answered,
   * with those that compile as they stand, which hold no block: [first line, last line] each.
   */
  onCompiledWindows?: (lines: [number, number][]) => void;
  /** The cores the analysis may count on (os.availableParallelism() unless given): see usesIndexWorker. */
  cores?: number;
}

const DIRECTIVE_TEXT = /#[ \t]*aiython:/;

export async function analyzeSource(args: AnalyzeArgs): Promise<Plan> {
  const { source, filename, displayName } = args;
  const runtimeName = chooseRuntimeName(source);
  const index = new LineIndex(source);
  const plan: Plan = { filename, displayName, rewritten: null, runtimeName, blocks: [], diagnostics: [], typos: [] };
  if (nullByte(source, index, plan)) return plan;
  const phase = args.onPhase ?? (() => {});
  const worker = usesIndexWorker(source.length, args.cores ?? availableParallelism()) ? startIndexWorker() : null; // boots while the windows are planned
  let windows: Window[];
  let searching: Promise<SearchResult>;
  let parsed: Map<number, Parsed>;
  let early: Promise<FirstRendering | null>;
  try {
    windows = planWindows(source);
    phase("windows");
    const report = args.onCompiledWindows;
    const onCompiled = report && ((ws: Window[]) => report(ws.map((w): [number, number] => [index.lineOf(w.start), index.lineOf(Math.max(w.start, w.end - 1))])));
    searching = findBlocks({ source, filename, oracle: args.oracle, runtimeName, windows, index, onCompiled });
    searching.catch(() => undefined); // awaited below; an oracle failure must not go unhandled meanwhile
    // The search usually ends before the index: its rendering goes to the oracle for confirmation
    // at once, so the round trip runs while this thread still indexes.
    early = searching.then((found) => (found.blocks.length > 0 ? firstRendering(args, found, index, runtimeName) : null));
    early.catch(() => undefined);
    parsed = await indexWindows(source, windows, worker, nextTurn);
  } finally {
    worker?.close();
  }
  phase("parsed");
  const search = await searching;
  phase("searched");
  if (search.blocks.length === 0) {
    directivesOf(source, plan, args);
    return plan;
  }
  const { rendering, groups } = await confirmedRendering(args, (await early) as FirstRendering, parsed, index, runtimeName);
  phase("confirmed");
  describe(plan, rendering, groups, index, args);
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

/** A window's index from step 1, indexing the window alone where its chunk's tree has errors. */
function partOf(source: string, p: Parsed): IndexPart {
  return (p.part ??= indexAlone(source, p.window));
}

/** A window's statements from a parse of the window alone (its chunk's tree has errors there). */
function indexAlone(source: string, window: Window): IndexPart {
  const text = source.slice(window.start, window.end);
  const map = (o: number): number => window.start + o;
  return indexTree(parsePython(text), text, map) as IndexPart;
}

interface FirstRendering {
  rendering: Rendering;
  /** The oracle's confirmation of it, under way. */
  confirming: Promise<boolean>;
}

/** Step 2 for the search's blocks: the rendering, and its confirmation sent to the oracle. */
function firstRendering(args: AnalyzeArgs, search: SearchResult, index: LineIndex, runtimeName: string): FirstRendering {
  const rendering = renderProgram(args.source, mergeStatementBlocks(search.blocks, index), search.windows, runtimeName);
  const confirming = confirm(args, rendering, index);
  confirming.catch(() => undefined); // awaited in confirmedRendering
  return { rendering, confirming };
}

/** Steps 2–4: the rendering the oracle confirmed, falling back to a whole-file search, then one block. */
async function confirmedRendering(
  args: AnalyzeArgs,
  first: FirstRendering,
  parsed: Map<number, Parsed>,
  index: LineIndex,
  runtimeName: string,
): Promise<{ rendering: Rendering; groups: ParsedGroup[] }> {
  const { source } = args;
  let { rendering } = first;
  const groups = parseGroups(source, rendering, parsed); // while the oracle compiles, if it still does
  if (await first.confirming) return { rendering, groups };
  const again = await findBlocks({ source, filename: args.filename, oracle: args.oracle, runtimeName });
  rendering = renderProgram(source, mergeStatementBlocks(again.blocks, index), again.windows, runtimeName);
  if (!(await confirm(args, rendering, index))) {
    rendering = renderProgram(source, wholeFileBlock(source), [{ start: 0, end: source.length, verified: false }], runtimeName);
    if (!(await confirm(args, rendering, index))) throw new Error(`the rewritten program of ${args.filename} does not compile even as one block`);
  }
  return { rendering, groups: parseGroups(source, rendering, new Map()) };
}

/** Types and directives, read from the rewritten program (valid Python). */
function describe(plan: Plan, rendering: Rendering, groupsParsed: ParsedGroup[], index: LineIndex, args: AnalyzeArgs): void {
  const { source, displayName } = args;
  const directives = directivesOf(rendering.text, plan, args);
  const program = mergeParts(groupsParsed.map((g) => g.part));
  const sites: CallSite[] = rendering.calls.map((call, i) => {
    const g = groupsParsed.find((x) => x.group.blocks.includes(i)) as ParsedGroup;
    return { kind: call.kind, start: call.start - g.group.newStart, end: call.end - g.group.newStart, tree: g.tree as SyntaxTree, text: g.text, map: g.map };
  });
  const typing = describeBlocks(sites, program);
  plan.rewritten = rendering.text;
  plan.blocks = rendering.blocks.map(
    (b, i): BlockInfo => ({
      id: `${displayName}:${i + 1}`,
      index: i + 1,
      statement: source.slice(b.start, b.end),
      kind: b.kind,
      span: index.span(b.start, b.end),
      target: typing[i].target,
      output_type: typing[i].outputType,
      requires_result: b.kind === "expression",
      directive: directiveFor(directives, index.lineOf(b.start)),
      is_async: rendering.scopes[i].isAsync,
      function: rendering.scopes[i].function,
    }),
  );
  plan.typos = plan.blocks.filter((block) => !readsAsProse(block.statement)).map((block) => block.index);
}

/** Lets pending I/O (oracle answers) run between two pieces of synchronous work. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

interface ParsedGroup {
  group: Group;
  /** The group's tree, for the calls in it; null for a group without blocks (its index is enough). */
  tree: SyntaxTree | null;
  text: string;
  map: OffsetMap;
  part: IndexPart;
}

function parseGroup(text: string, g: Group, map: OffsetMap): ParsedGroup {
  const slice = text.slice(g.newStart, g.newEnd);
  const tree = parsePython(slice);
  const partMap: OffsetMap = (o, bias) => map(g.newStart + o, bias);
  return { group: g, tree, text: slice, map: partMap, part: indexTree(tree, slice, partMap) as IndexPart };
}

/** Parses the rewritten text of every group that changed; reuses the window parses of the others. */
function parseGroups(source: string, r: Rendering, parsed: Map<number, Parsed>): ParsedGroup[] {
  const toOriginal = offsetMap(r.replacements);
  return r.groups.map((g) => {
    const p = g.blocks.length === 0 ? parsed.get(g.start) : undefined;
    if (p && p.window.end === g.end) return { group: g, tree: null, text: "", map: (o) => o, part: partOf(source, p) };
    return parseGroup(r.text, g, toOriginal);
  });
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
