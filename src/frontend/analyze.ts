// analyzeSource: source text in, plan out (SPEC §3, §4.2). The frontend's one entry point.
//
// Order of work, arranged so that the Python compile oracle and the JS side (tree-sitter, the
// statement index) run at the same time on a large file:
//   1. the source is cut into windows of top-level statements and the window batch goes to the
//      oracle (search.ts); meanwhile tree-sitter parses the source once and the statements of
//      each window are indexed from that tree (from a parse of the window alone where the whole
//      tree is not clean there), yielding between windows so the search's rounds interleave;
//   2. the search finishes; adjacent statement blocks merge; each block's scope is read from the
//      placeholder program and the final calls are rendered (sync or awaited);
//   3. the windows holding calls (and any the search did not see compile) are confirmed by the
//      oracle as rendered; meanwhile their rewritten text is parsed and indexed;
//   4. if the confirmation fails (a bug), the search runs again over the whole file as one window,
//      and if that fails too the whole file becomes one statement block. Never a refusal.
// Types, checkpoints and directives are read from the rewritten program (valid Python). Bad input
// never throws: it becomes blocks or diagnostics.

import type { CompileOracle } from "./oracle.js";
import type { BlockInfo, Plan } from "./plan.js";
import { LineIndex } from "./positions.js";
import { scan } from "./scanner.js";
import { findBlocks, trimmed, type FoundBlock, type SearchResult } from "./search.js";
import { mergeStatementBlocks } from "./merge-blocks.js";
import { blockScopes, type BlockScope } from "./scopes.js";
import { applyReplacements, callText, chooseRuntimeName, offsetMap, type OffsetMap, type Replacement } from "./render.js";
import { parsePython, type SyntaxTree } from "./syntax-tree.js";
import { describeBlocks, type CallSite } from "./block-info.js";
import { selectCheckpoints } from "./checkpoints.js";
import { directiveFor, readDirectives } from "./directives.js";
import { indexTree, mergeParts, type IndexPart } from "./program-index.js";
import { planWindows, type Window } from "./windows.js";

export interface AnalyzeArgs {
  source: string;
  filename: string;
  displayName: string;
  oracle: CompileOracle;
  /** The program's main module (its top-level statements are checkpointed), or an imported project module. */
  entryModule: boolean;
  /** Select checkpoints (recovery enabled, or `--explain`). */
  checkpoints: boolean;
  /** Capability names a `capability` directive may give (src/capabilities/names.ts). */
  capabilityNames: readonly string[];
  /** Called as each phase ends (for benchmarks and `--stats`): "windows", "parsed", "searched", "confirmed", "described". */
  onPhase?: (phase: string) => void;
}

const DIRECTIVE_TEXT = /#[ \t]*aiython:/;

interface Parsed {
  window: Window;
  tree: SyntaxTree;
  /** The text `tree` was parsed from. */
  text: string;
  /** Offsets of `tree`'s text → original offsets. */
  map: OffsetMap;
  part: IndexPart;
}

export async function analyzeSource(args: AnalyzeArgs): Promise<Plan> {
  const { source, filename, displayName } = args;
  const runtimeName = chooseRuntimeName(source);
  const index = new LineIndex(source);
  const plan: Plan = { filename, displayName, rewritten: null, runtimeName, blocks: [], checkpoints: [], diagnostics: [] };

  const nul = source.indexOf("\0");
  if (nul >= 0) {
    const p = index.point(nul);
    plan.diagnostics.push({ line: p.line, column: p.column, message: "source code cannot contain null bytes" });
    return plan;
  }

  const phase = args.onPhase ?? (() => {});
  const windows = planWindows(source);
  phase("windows");
  const searching = findBlocks({ source, filename, oracle: args.oracle, runtimeName, windows, index });
  // While the oracle compiles the windows: one tree-sitter parse of the source, then each window's
  // statements indexed from it where tree-sitter saw clean Python there (a window of its own
  // parse otherwise), yielding between windows so that the search's rounds interleave.
  const whole = parsePython(source);
  const clean = !whole.rootNode.hasError;
  const parsed = new Map<number, Parsed>();
  for (const window of windows) {
    const part = indexTree(whole, source, (o) => o, window.start === 0, { ...window, clean });
    if (part) {
      parsed.set(window.start, { window, tree: whole, text: source, map: (o) => o, part });
    } else {
      const text = source.slice(window.start, window.end);
      const tree = parsePython(text);
      const map = (o: number): number => window.start + o;
      parsed.set(window.start, { window, tree, text, map, part: indexTree(tree, text, map, window.start === 0) as IndexPart });
    }
    await nextTurn();
  }
  phase("parsed");
  let search = await searching;
  phase("searched");
  const directivesOf = (text: string) => (DIRECTIVE_TEXT.test(text) ? readDirectives(scan(text, { tokens: false }), new LineIndex(text), plan.diagnostics, args.capabilityNames) : { applied: [] });

  if (search.blocks.length === 0) {
    directivesOf(source);
    if (args.checkpoints) {
      const parts = search.windows.map((w) => reuse(parsed, w) ?? parseGroup(source, { ...w, newStart: w.start, newEnd: w.end, blocks: [] }, (o) => o).part);
      plan.checkpoints = selectCheckpoints(mergeParts(parts), { displayName, entryModule: args.entryModule, original: index, statementBlocks: [] });
    }
    return plan;
  }

  let rendering = renderProgram(source, mergeStatementBlocks(search.blocks, index), search.windows, runtimeName);
  let confirming = confirm(args, rendering);
  let groupsParsed = parseGroups(source, rendering, parsed);
  if (!(await confirming)) {
    search = await findBlocks({ source, filename, oracle: args.oracle, runtimeName });
    rendering = renderProgram(source, mergeStatementBlocks(search.blocks, index), search.windows, runtimeName);
    confirming = confirm(args, rendering);
    if (!(await confirming)) {
      rendering = renderProgram(source, wholeFileBlock(source), [{ start: 0, end: source.length, verified: false }], runtimeName);
      if (!(await confirm(args, rendering))) throw new Error(`internal error: the rewritten program of ${filename} does not compile even as one block`);
    }
    groupsParsed = parseGroups(source, rendering, new Map());
  }
  phase("confirmed");

  const text = rendering.text;
  const directives = directivesOf(text);
  const program = mergeParts(groupsParsed.map((g) => g.part));
  const sites: CallSite[] = rendering.calls.map((call, i) => {
    const g = groupsParsed.find((x) => x.group.blocks.includes(i)) as ParsedGroup;
    return { kind: call.kind, start: call.start - g.group.newStart, end: call.end - g.group.newStart, tree: g.tree, text: g.text, map: g.map };
  });
  const typing = describeBlocks(sites, program);
  plan.rewritten = text;
  plan.blocks = rendering.blocks.map((b, i): BlockInfo => ({
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
  }));
  if (args.checkpoints) {
    const statementBlocks = rendering.blocks.filter((b) => b.kind === "statement");
    plan.checkpoints = selectCheckpoints(program, { displayName, entryModule: args.entryModule, original: index, statementBlocks });
  }
  phase("described");
  return plan;
}

/** Lets pending I/O (oracle answers) run between two pieces of synchronous work. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

interface ParsedGroup {
  group: Group;
  tree: SyntaxTree;
  text: string;
  map: OffsetMap;
  part: IndexPart;
}

/** The window's parse from step 1 when the window is unchanged, else null. */
function reuse(parsed: Map<number, Parsed>, w: { start: number; end: number }): IndexPart | null {
  const p = parsed.get(w.start);
  return p && p.window.end === w.end ? p.part : null;
}

function parseGroup(text: string, g: Group, map: OffsetMap): ParsedGroup {
  const slice = text.slice(g.newStart, g.newEnd);
  const tree = parsePython(slice);
  const partMap: OffsetMap = (o, bias) => map(g.newStart + o, bias);
  return { group: g, tree, text: slice, map: partMap, part: indexTree(tree, slice, partMap, g.start === 0) as IndexPart };
}

/** Parses the rewritten text of every group that changed; reuses the window parses of the others. */
function parseGroups(source: string, r: Rendering, parsed: Map<number, Parsed>): ParsedGroup[] {
  const toOriginal = offsetMap(r.replacements);
  return r.groups.map((g) => {
    const p = g.blocks.length === 0 ? parsed.get(g.start) : undefined;
    if (p && p.window.end === g.end) {
      return { group: g, tree: p.tree, text: p.text, map: p.map, part: p.part };
    }
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
async function confirm(args: AnalyzeArgs, r: Rendering): Promise<boolean> {
  if (new LineIndex(r.text).lineCount !== new LineIndex(args.source).lineCount) return false;
  const texts = r.groups.filter((g) => g.blocks.length > 0 || !g.verified).map((g) => r.text.slice(g.newStart, g.newEnd));
  if (texts.length === 0) return true;
  const verdicts = await args.oracle.check(texts.map((text) => ({ source: text, filename: args.filename })));
  return verdicts.every((v) => v.ok);
}

interface Group {
  /** Original offsets. */
  start: number;
  end: number;
  /** Offsets in the rewritten text. */
  newStart: number;
  newEnd: number;
  verified?: boolean;
  /** Indexes into the rendering's blocks. */
  blocks: number[];
}

interface Rendering {
  text: string;
  blocks: FoundBlock[];
  /** Original spans and the calls that replace them, in order. */
  replacements: Replacement[];
  /** Each call's span in the rewritten text. */
  calls: { start: number; end: number; kind: FoundBlock["kind"] }[];
  scopes: BlockScope[];
  groups: Group[];
}

/**
 * The rewritten program. Each block's scope (sync or async call) is read from the placeholder
 * program, one window group at a time (a block's scope never reaches outside its top-level
 * statement), then the final calls are rendered.
 */
function renderProgram(source: string, blocks: FoundBlock[], windows: SearchResult["windows"], runtimeName: string): Rendering {
  const sync = blocks.map((b, i) => ({ start: b.start, end: b.end, text: callText(source.slice(b.start, b.end), runtimeName, i + 1, false) }));
  const placeholder = applyReplacements(source, sync);
  const groups = groupWindows(windows, blocks);
  const scopes: BlockScope[] = blocks.map(() => ({ isAsync: false, function: null }));
  const shiftBefore = shifts(sync);
  for (const g of groups) {
    if (g.blocks.length === 0) continue;
    const from = g.start + shiftBefore(g.start);
    const to = g.end + shiftBefore(g.end);
    const found = blockScopes(scan(placeholder.text.slice(from, to)), g.blocks.map((i) => placeholder.starts[i] - from));
    g.blocks.forEach((i, k) => (scopes[i] = found[k]));
  }
  const replacements = blocks.map((b, i) => (scopes[i].isAsync ? { ...sync[i], text: callText(source.slice(b.start, b.end), runtimeName, i + 1, true) } : sync[i]));
  const final = applyReplacements(source, replacements);
  const shiftFinal = shifts(replacements);
  for (const g of groups) {
    g.newStart = g.start + shiftFinal(g.start);
    g.newEnd = g.end + shiftFinal(g.end);
  }
  return {
    text: final.text,
    blocks,
    replacements,
    calls: blocks.map((b, i) => ({ start: final.starts[i], end: final.starts[i] + replacements[i].text.length, kind: b.kind })),
    scopes,
    groups,
  };
}

/** Consecutive windows, joined where a block crosses from one into the next. */
function groupWindows(windows: SearchResult["windows"], blocks: FoundBlock[]): Group[] {
  const groups: Group[] = [];
  let b = 0;
  for (const w of windows) {
    const last = groups[groups.length - 1];
    const crossing = last !== undefined && last.blocks.some((i) => blocks[i].end > last.end);
    const g: Group = crossing ? last : { start: w.start, end: w.end, newStart: w.start, newEnd: w.end, verified: true, blocks: [] };
    if (crossing) g.end = w.end;
    else groups.push(g);
    g.verified = (g.verified ?? true) && w.verified;
    while (b < blocks.length && blocks[b].start < g.end) g.blocks.push(b++);
  }
  return groups;
}

/** For an original offset outside every replacement: how far the text after it has moved. */
function shifts(replacements: Replacement[]): (offset: number) => number {
  const ends = replacements.map((r) => r.end);
  const cumulative: number[] = [];
  let total = 0;
  for (const r of replacements) {
    total += r.text.length - (r.end - r.start);
    cumulative.push(total);
  }
  return (offset) => {
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : cumulative[lo - 1];
  };
}

function wholeFileBlock(source: string): FoundBlock[] {
  const sc = scan(source, { tokens: false });
  if (sc.lines.length === 0) return [];
  const first = sc.lines[0];
  return [trimmed(source, { start: first.indent > 0 ? first.lineStart : first.start, end: sc.lines[sc.lines.length - 1].end, kind: "statement" })];
}
