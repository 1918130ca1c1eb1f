// `--stats` output (SPEC §11, §13): per invocation and for the run, counts, costs and timings
// only — never program data, prompts or keys. The text form is a small table on stderr; the JSON
// form is one line `aiython stats: {"invocations": [...], "run": {...}}` whose invocation fields
// are the §11 list plus `replayed`, `batched` (SPEC §14), `cost_usd` (null when unknown) and `unpriced_routes`. Model
// calls are HTTP requests sent (retries included); answers from the journal count as replayed.
// Recovery decisions that changed the program's course (SPEC §4.2: completed, retried) are
// counted for the run: a line of the text form, `recovered` in the JSON.

import type { InvocationRecord } from "../invocation-record.js";
import { costCell, costLabel, totalCost } from "./cost.js";
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
      replayed: inv.stats.replayed,
      batched: inv.stats.batched,
      tool_calls: inv.stats.tool_calls,
      tool_counts: inv.stats.tool_counts,
      request_bytes: inv.stats.request_bytes,
      token_usage: inv.stats.token_usage,
      invalid_batches: inv.stats.invalid_batches,
      empty_responses: inv.stats.empty_responses,
      tool_failures: inv.stats.tool_failures,
      provider_seconds: seconds(inv.stats.provider_seconds),
      invocation_seconds: seconds(inv.stats.invocation_seconds),
      cost_usd: usd(inv.stats.cost_usd),
      unpriced_routes: inv.stats.unpriced_routes,
      ...(inv.capabilities ? { capabilities: { ...inv.capabilities, cost_usd: usd(inv.capabilities.cost_usd) } } : {}),
    })),
    run: {
      ...runTotals(invocations),
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
    const replayed = total((i) => i.stats.replayed);
    const batched = total((i) => i.stats.batched);
    const cost = totalCost(invocations.map((inv) => inv.stats));
    lines.push(
      `aiython stats: ${plural(invocations.length, "AI invocation")}, ${plural(
        total((i) => i.stats.model_calls),
        "model call",
      )}` +
        `${replayed > 0 ? ` (${replayed} replayed)` : ""}${batched > 0 ? ` (${batched} batched)` : ""}, ` +
        `${plural(
          total((i) => i.stats.tool_calls),
          "tool call",
        )}, ${kilobytes(total((i) => i.stats.request_bytes))} sent, ` +
        `${plural(
          total((i) => i.stats.token_usage.total_tokens),
          "token",
        )}, ${costLabel(cost.cost_usd, cost.unpriced_routes)}, ` +
        `${total((i) => i.stats.provider_seconds).toFixed(3)} s waiting for the model`,
    );
    // The replayed column only in runs that replayed something.
    const rows = invocations.map((inv) => [
      `${display(inv.filename)}:${inv.line}`,
      inv.mode,
      outcomeLabel(inv.end),
      String(inv.stats.model_calls),
      ...(replayed > 0 ? [String(inv.stats.replayed)] : []),
      String(inv.stats.tool_calls),
      kilobytes(inv.stats.request_bytes),
      String(inv.stats.token_usage.total_tokens),
      costCell(inv.stats.cost_usd),
      inv.stats.invocation_seconds.toFixed(3),
    ]);
    const header = ["block", "mode", "outcome", "model calls", ...(replayed > 0 ? ["replayed"] : []), "tool calls", "request", "tokens", "cost", "seconds"];
    lines.push(...table(header, rows, 3));
  }
  const recovered = recoveredCounts(invocations);
  if (recovered.completed + recovered.retried > 0) {
    const times = recovered.completed + recovered.retried;
    lines.push(`aiython stats: recovery changed the program's course ${times === 1 ? "once" : `${times} times`}: ${recovered.completed} completed, ${recovered.retried} retried`);
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
  let calls = 0,
    cached = 0,
    replayed = 0,
    cost: number | null = null;
  const unpriced = new Set<string>();
  for (const k of used) {
    calls += k.calls;
    cached += k.cached;
    replayed += k.replayed;
    for (const [name, n] of Object.entries(k.counts)) counts[name] = (counts[name] ?? 0) + n;
    if (k.cost_usd !== null) cost = (cost ?? 0) + k.cost_usd;
    for (const name of k.unpriced) unpriced.add(name);
  }
  const each = Object.entries(counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(", ");
  const local = [cached > 0 ? `${cached} from the cache` : "", replayed > 0 ? `${replayed} replayed` : ""].filter(Boolean).join(", ");
  const priced = cost === null ? "" : `$${cost.toFixed(6)}`;
  const unknown = unpriced.size > 0 ? `cost unknown (no price for ${[...unpriced].join(", ")})` : "";
  const spent = [priced, unknown].filter(Boolean).join(" + ") || "$0.000000";
  return `aiython stats: capabilities: ${plural(calls, "provider call")}${each ? ` (${each})` : ""}${local ? `, ${local}` : ""}; ${spent}`;
}

export function outcomeLabel(end: { status: string; action?: string | null }): string {
  return end.status === "finished" && end.action ? end.action : end.status;
}

/** Rows of cells, left-aligned up to column `numericFrom`, right-aligned after; indented by two. */
export function table(header: string[], rows: string[][], numericFrom: number): string[] {
  const widths = header.map((title, col) => Math.max(title.length, ...rows.map((row) => row[col].length)));
  const render = (cells: string[]) =>
    `  ${cells
      .map((cell, col) => (col < numericFrom ? cell.padEnd(widths[col]) : cell.padStart(widths[col])))
      .join("  ")
      .trimEnd()}`;
  return [render(header), ...rows.map(render)];
}

export function kilobytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** The run's sums of the per-invocation counters (SPEC §11, §13). */
function runTotals(invocations: readonly InvocationRecord[]) {
  const total = (pick: (inv: InvocationRecord) => number) => invocations.reduce((sum, inv) => sum + pick(inv), 0);
  const cost = totalCost(invocations.map((inv) => inv.stats));
  return {
    model_calls: total((i) => i.stats.model_calls),
    replayed: total((i) => i.stats.replayed),
    batched: total((i) => i.stats.batched),
    request_bytes: total((i) => i.stats.request_bytes),
    total_tokens: total((i) => i.stats.token_usage.total_tokens),
    cost_usd: usd(cost.cost_usd),
    unpriced_routes: cost.unpriced_routes,
    recovered: recoveredCounts(invocations),
  };
}

/** Recovery decisions that changed the program's course (SPEC §4.2); a re-raise changes nothing. */
function recoveredCounts(invocations: readonly InvocationRecord[]): { completed: number; retried: number } {
  const counts = { completed: 0, retried: 0 };
  for (const inv of invocations) {
    if (inv.mode !== "recovery" || inv.end.status !== "finished") continue;
    if (inv.end.action === "complete") counts.completed++;
    else if (inv.end.action === "retry") counts.retried++;
  }
  return counts;
}

/** USD to the nearest billionth (a millionth of a cent): exact sums of per-million prices, no float noise. */
function usd(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1e9) / 1e9;
}

/** Microsecond precision: enough for timings, without float noise in the JSON. */
function seconds(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
