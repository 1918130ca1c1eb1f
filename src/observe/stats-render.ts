// `--stats` output (SPEC §11): per invocation and for the run, counts and timings only — never
// program data, prompts or keys. The text form is a small table on stderr; the JSON form is one
// line `aiython stats: {"invocations": [...], "run": {...}}` whose invocation fields are exactly
// the §11 list.

import type { InvocationRecord } from "../invocation-record.js";
import type { RunTimings } from "./types.js";

/** Names a block's file for people: relative to the working directory when inside it. */
export type DisplayFile = (file: string) => string;

export function statsJsonLine(invocations: readonly InvocationRecord[], run: RunTimings, display: DisplayFile): string {
  const body = {
    invocations: invocations.map((inv) => ({
      filename: display(inv.filename),
      line: inv.line,
      mode: inv.mode,
      model_calls: inv.stats.model_calls,
      tool_calls: inv.stats.tool_calls,
      tool_counts: inv.stats.tool_counts,
      request_bytes: inv.stats.request_bytes,
      token_usage: inv.stats.token_usage,
      invalid_batches: inv.stats.invalid_batches,
      empty_responses: inv.stats.empty_responses,
      tool_failures: inv.stats.tool_failures,
      provider_seconds: seconds(inv.stats.provider_seconds),
      invocation_seconds: seconds(inv.stats.invocation_seconds),
      ...(inv.capabilities ? { capabilities: { ...inv.capabilities, cost_usd: usd(inv.capabilities.cost_usd) } } : {}),
    })),
    run: {
      total_seconds: seconds(run.totalSeconds),
      parse_seconds: seconds(run.parseSeconds),
      prepare_seconds: seconds(run.prepareSeconds),
      execution_seconds: seconds(run.executionSeconds),
    },
  };
  return `aiython stats: ${JSON.stringify(body)}\n`;
}

export function statsText(invocations: readonly InvocationRecord[], run: RunTimings, display: DisplayFile): string {
  const total = (pick: (inv: InvocationRecord) => number) => invocations.reduce((sum, inv) => sum + pick(inv), 0);
  const lines: string[] = [];
  if (invocations.length === 0) {
    lines.push("aiython stats: no AI invocations");
  } else {
    lines.push(
      `aiython stats: ${plural(invocations.length, "AI invocation")}, ${plural(total((i) => i.stats.model_calls), "model call")}, ` +
        `${plural(total((i) => i.stats.tool_calls), "tool call")}, ${kilobytes(total((i) => i.stats.request_bytes))} sent, ` +
        `${plural(total((i) => i.stats.token_usage.total_tokens), "token")}, ${total((i) => i.stats.provider_seconds).toFixed(3)} s waiting for the model`,
    );
    const rows = invocations.map((inv) => [
      `${display(inv.filename)}:${inv.line}`,
      inv.mode,
      outcomeLabel(inv.end),
      String(inv.stats.model_calls),
      String(inv.stats.tool_calls),
      kilobytes(inv.stats.request_bytes),
      String(inv.stats.token_usage.total_tokens),
      inv.stats.invocation_seconds.toFixed(3),
    ]);
    lines.push(...table(["block", "mode", "outcome", "model calls", "tool calls", "request", "tokens", "seconds"], rows, 3));
  }
  const capabilities = capabilityLine(invocations);
  if (capabilities) lines.push(capabilities);
  lines.push(
    `aiython stats: run ${run.totalSeconds.toFixed(3)} s total; parse ${run.parseSeconds.toFixed(3)} s, ` +
      `prepare ${run.prepareSeconds.toFixed(3)} s, execution ${run.executionSeconds.toFixed(3)} s`,
  );
  return `${lines.join("\n")}\n`;
}

/** SPEC §10: provider calls of capability steps, answers served locally, and their cost. */
function capabilityLine(invocations: readonly InvocationRecord[]): string | null {
  const used = invocations.flatMap((inv) => (inv.capabilities ? [inv.capabilities] : []));
  if (used.length === 0) return null;
  const counts: Record<string, number> = {};
  let calls = 0, cached = 0, replayed = 0, cost: number | null = null;
  const unpriced = new Set<string>();
  for (const k of used) {
    calls += k.calls;
    cached += k.cached;
    replayed += k.replayed;
    for (const [name, n] of Object.entries(k.counts)) counts[name] = (counts[name] ?? 0) + n;
    if (k.cost_usd !== null) cost = (cost ?? 0) + k.cost_usd;
    for (const name of k.unpriced) unpriced.add(name);
  }
  const each = Object.entries(counts).map(([name, n]) => `${name} ${n}`).join(", ");
  const local = [cached > 0 ? `${cached} from the cache` : "", replayed > 0 ? `${replayed} replayed` : ""].filter(Boolean).join(", ");
  const priced = cost === null ? "" : `$${cost.toFixed(6)}`;
  const unknown = unpriced.size > 0 ? `cost unknown (no price for ${[...unpriced].join(", ")})` : "";
  const spent = [priced, unknown].filter(Boolean).join(" + ") || "$0.000000";
  return `aiython stats: capabilities: ${plural(calls, "provider call")}${each ? ` (${each})` : ""}${local ? `, ${local}` : ""}; ${spent}`;
}

function usd(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1e9) / 1e9;
}

export function outcomeLabel(end: { status: string; action?: string | null }): string {
  return end.status === "finished" && end.action ? end.action : end.status;
}

/** Rows of cells, left-aligned up to column `numericFrom`, right-aligned after; indented by two. */
export function table(header: string[], rows: string[][], numericFrom: number): string[] {
  const widths = header.map((title, col) => Math.max(title.length, ...rows.map((row) => row[col].length)));
  const render = (cells: string[]) =>
    `  ${cells.map((cell, col) => (col < numericFrom ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join("  ").trimEnd()}`;
  return [render(header), ...rows.map(render)];
}

export function kilobytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Microsecond precision: enough for timings, without float noise in the JSON. */
function seconds(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
