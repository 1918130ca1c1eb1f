// analyzeSource: source text in, plan out (SPEC §3, §4.2). The frontend's one entry point.
//
// Order of work, arranged so that the Python compile oracle and tree-sitter (both costly on a
// 1 MB file) run at the same time:
//   1. the window batch goes to the oracle (search.ts); meanwhile tree-sitter parses the source;
//   2. the search finishes; adjacent statement blocks merge; each block's scope is read from the
//      placeholder program and the final calls are rendered (sync or awaited);
//   3. the rewritten program goes to the oracle for the one whole-file confirmation; meanwhile
//      tree-sitter re-parses it incrementally and block types, checkpoints and directives are read;
//   4. if the confirmation fails (a bug), the search runs again over the whole file as one window,
//      and if that fails too the whole file becomes one statement block. Never a refusal.
// Bad input never throws: it becomes blocks or diagnostics.

import type { CompileOracle } from "./oracle.js";
import type { BlockInfo, CheckpointInfo, Diagnostic, Plan } from "./plan.js";
import { LineIndex } from "./positions.js";
import { scan } from "./scanner.js";
import { findBlocks, type FoundBlock } from "./search.js";
import { mergeStatementBlocks } from "./merge-blocks.js";
import { blockScopes, type BlockScope } from "./scopes.js";
import { applyReplacements, callText, chooseRuntimeName, offsetMap, type OffsetMap, type Replacement } from "./render.js";
import { parsePython, reparse, type SyntaxTree } from "./syntax-tree.js";
import { describeBlocks } from "./block-info.js";
import { selectCheckpoints } from "./checkpoints.js";
import { directiveFor, readDirectives } from "./directives.js";
import { indexProgram } from "./program-index.js";

export interface AnalyzeArgs {
  source: string;
  filename: string;
  displayName: string;
  oracle: CompileOracle;
  /** The program's main module (its top-level statements are checkpointed), or an imported project module. */
  entryModule: boolean;
  /** Select checkpoints (recovery enabled, or `--explain`). */
  checkpoints: boolean;
}

const DIRECTIVE_TEXT = /#[ \t]*aiython:/;

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

  // tree-sitter parses while the oracle compiles the windows (the source is usually broken here:
  // the host calls the frontend when CPython rejects a file, and for `--explain`).
  const searching = findBlocks({ source, filename, oracle: args.oracle, runtimeName });
  const tree = parsePython(source);
  const found = (await searching).blocks;

  if (found.length === 0) {
    if (DIRECTIVE_TEXT.test(source)) readDirectives(scan(source), index, plan.diagnostics);
    if (args.checkpoints) plan.checkpoints = checkpointsOf(tree, source, index, null, [], args);
    return plan;
  }

  let rendering = renderProgram(source, mergeStatementBlocks(found, index), runtimeName);
  const confirming = args.oracle.check([{ source: rendering.text, filename }]);
  let rewrittenTree = reparse(tree, index, rendering.replacements, rendering.text);
  if (!(await confirms(confirming, rendering.text, index))) {
    const again = await findBlocks({ source, filename, oracle: args.oracle, runtimeName, wholeFile: true });
    rendering = renderProgram(source, mergeStatementBlocks(again.blocks, index), runtimeName);
    if (!(await confirms(args.oracle.check([{ source: rendering.text, filename }]), rendering.text, index))) {
      rendering = renderProgram(source, wholeFileBlock(source), runtimeName);
      const [last] = await args.oracle.check([{ source: rendering.text, filename }]);
      if (!last.ok) throw new Error(`internal: the rewritten program of ${filename} does not compile: ${last.error.message} (line ${last.error.line})`);
    }
    rewrittenTree = parsePython(rendering.text);
  }

  const text = rendering.text;
  const rewrittenScan = scan(text);
  const directives = readDirectives(rewrittenScan, new LineIndex(text), plan.diagnostics);
  const program = indexProgram(rewrittenTree, text);
  const typing = describeBlocks(rewrittenTree, text, rendering.calls, program);
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
    const statementCalls = rendering.calls.filter((c) => c.kind === "statement");
    plan.checkpoints = selectCheckpoints(program, { displayName, entryModule: args.entryModule, original: index, toOriginal: offsetMap(rendering.replacements), statementCalls });
  }
  return plan;
}

function checkpointsOf(tree: SyntaxTree, source: string, index: LineIndex, toOriginal: OffsetMap | null, statementCalls: { start: number; end: number }[], args: AnalyzeArgs): CheckpointInfo[] {
  return selectCheckpoints(indexProgram(tree, source), { displayName: args.displayName, entryModule: args.entryModule, original: index, toOriginal, statementCalls });
}

async function confirms(verdicts: Promise<{ ok: boolean }[]>, text: string, index: LineIndex): Promise<boolean> {
  const [v] = await verdicts;
  return v.ok && new LineIndex(text).lineCount === index.lineCount;
}

interface Rendering {
  text: string;
  blocks: FoundBlock[];
  /** Original spans and the calls that replace them, in order. */
  replacements: Replacement[];
  /** Each call's span in the rewritten text. */
  calls: { start: number; end: number; kind: FoundBlock["kind"] }[];
  scopes: BlockScope[];
}

/** The rewritten program: placeholders first (to read each block's scope), then the final calls. */
function renderProgram(source: string, blocks: FoundBlock[], runtimeName: string): Rendering {
  const sync = blocks.map((b, i) => ({ start: b.start, end: b.end, text: callText(source.slice(b.start, b.end), runtimeName, i + 1, false) }));
  const placeholder = applyReplacements(source, sync);
  const scopes = blockScopes(scan(placeholder.text), placeholder.starts);
  const replacements = blocks.map((b, i) => (scopes[i].isAsync ? { ...sync[i], text: callText(source.slice(b.start, b.end), runtimeName, i + 1, true) } : sync[i]));
  const final = applyReplacements(source, replacements);
  return {
    text: final.text,
    blocks,
    replacements,
    calls: blocks.map((b, i) => ({ start: final.starts[i], end: final.starts[i] + replacements[i].text.length, kind: b.kind })),
    scopes,
  };
}

function wholeFileBlock(source: string): FoundBlock[] {
  const sc = scan(source);
  if (sc.lines.length === 0) return [];
  const first = sc.lines[0];
  return [{ start: first.indent > 0 ? first.lineStart : first.start, end: sc.lines[sc.lines.length - 1].end, kind: "statement" }];
}

export type { Diagnostic };
