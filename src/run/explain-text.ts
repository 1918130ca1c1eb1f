// `aiython --explain` for people (SPEC §3.4): the source with every block of the frontend's plan
// highlighted and described (kind, target, output type, directive settings), a gutter mark on
// each line where a checkpoint the bridge selects starts (run/explain.ts), then a one-line summary
// that says what the mark means. A block that reads as mistyped Python (the plan's typos) says it
// is refused when run. Colour is the caller's decision (cli/commands/explain.ts: NO_COLOR, then
// FORCE_COLOR and the terminal); without colour, blocks are underlined with carets instead.

import { Chalk } from "chalk";
import type { CheckpointInfo } from "../bridge/protocol.js";
import type { BlockInfo, Plan } from "../frontend/index.js";
import { LineIndex } from "../frontend/positions.js";

export interface ExplainTextOptions {
  color: boolean;
}

const CHECKPOINT_MARK = "●";

export function renderExplainText(plan: Plan, checkpoints: readonly CheckpointInfo[], source: string, options: ExplainTextOptions): string {
  return [...explainTextChunks(plan, checkpoints, source, options)].join("");
}

/** Lines of output per chunk. */
const CHUNK_LINES = 4096;

/**
 * renderExplainText's text in chunks of a few thousand lines, each ending in a line break, so that
 * a large file's listing is written as it is made (SPEC §12) instead of held whole.
 */
export function* explainTextChunks(plan: Plan, checkpoints: readonly CheckpointInfo[], source: string, options: ExplainTextOptions): Generator<string> {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const index = new LineIndex(source);
  const lineCount = index.lineCount;
  const width = String(lineCount).length;
  const checkpointLines = new Set(checkpoints.map((k) => k.span.line));
  const endingOn = new Map<number, BlockInfo[]>();
  for (const b of plan.blocks) endingOn.set(b.span.end_line, [...(endingOn.get(b.span.end_line) ?? []), b]);

  const covering = new Map<number, BlockInfo[]>(); // line → the blocks on it, in plan order
  for (const b of plan.blocks) for (let l = b.span.line; l <= b.span.end_line; l++) covering.set(l, [...(covering.get(l) ?? []), b]);

  let out: string[] = [`${c.bold(plan.displayName)}`];
  for (let line = 1; line <= lineCount; line++) {
    const raw = index.lineText(line);
    const marks = ranges(covering.get(line) ?? [], line, raw);
    const gutter = `${String(line).padStart(width)} ${checkpointLines.has(line) ? c.green(CHECKPOINT_MARK) : " "} `;
    out.push((c.dim(gutter.slice(0, width + 1)) + gutter.slice(width + 1) + highlight(raw, marks, c, options.color)).trimEnd());
    const pad = " ".repeat(width + 3);
    if (!options.color && marks.length > 0) out.push(pad + carets(raw, marks));
    for (const b of endingOn.get(line) ?? []) out.push(pad + c.cyan(describe(b, plan.typos.includes(b.index))));
    if (out.length >= CHUNK_LINES) {
      yield `${out.join("\n")}\n`;
      out = [];
    }
  }
  out.push("", summary(plan, checkpoints.length));
  for (const d of plan.diagnostics) out.push(c.red(`${plan.displayName}:${d.line}: ${d.message}`));
  yield `${out.join("\n")}\n`;
}

function describe(b: BlockInfo, typo: boolean): string {
  if (typo) return `└ block ${b.index}: reads as mistyped Python, not natural language: a run stops here with CPython's SyntaxError`;
  const parts = [`└ block ${b.index}: ${b.kind}`];
  if (b.target) parts.push(`target ${b.target}`);
  if (b.output_type) parts.push(`type ${b.output_type}`);
  if (b.is_async) parts.push("awaited");
  const d = b.directive;
  if (d.profile) parts.push(`profile ${d.profile}`);
  if (d.capability) parts.push(`capability ${d.capability}`);
  if (d.provider) parts.push(`provider ${d.provider}`);
  if (d.prompts.length > 0) parts.push(`${d.prompts.length} prompt${d.prompts.length === 1 ? "" : "s"}`);
  return parts.join(", ");
}

function summary(plan: Plan, k: number): string {
  const n = plan.blocks.length;
  const blocks = n === 0 ? "no AI blocks (CPython compiles the file as it is)" : `${n} AI block${n === 1 ? "" : "s"}`;
  const legend = k === 0 ? "" : ` (${CHECKPOINT_MARK} marks where each starts)`;
  return `${blocks}, ${k} checkpoint${k === 1 ? "" : "s"}${legend}`;
}

/** Code-point column ranges of `line` covered by blocks. */
function ranges(blocks: BlockInfo[], line: number, raw: string): [number, number][] {
  const out: [number, number][] = [];
  let chars: string[] | null = null;
  for (const b of blocks) {
    if (line < b.span.line || line > b.span.end_line) continue;
    chars ??= [...raw];
    const from = line === b.span.line ? b.span.column : chars.length - [...raw.trimStart()].length;
    const to = line === b.span.end_line ? b.span.end_column : chars.length;
    if (to > from) out.push([from, to]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

function highlight(raw: string, marks: [number, number][], c: InstanceType<typeof Chalk>, color: boolean): string {
  if (!color || marks.length === 0) return raw;
  const chars = [...raw];
  let out = "";
  let at = 0;
  for (const [from, to] of marks) {
    out += chars.slice(at, from).join("") + c.inverse.yellow(chars.slice(from, to).join(""));
    at = to;
  }
  return out + chars.slice(at).join("");
}

function carets(raw: string, marks: [number, number][]): string {
  const chars = [...raw];
  let out = "";
  let col = 0;
  for (const [from, to] of marks) {
    for (; col < from; col++) out += chars[col] === "\t" ? "\t" : " ";
    for (; col < to; col++) out += "^";
  }
  return out;
}
