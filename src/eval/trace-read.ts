// What one run's `--trace` file says of its AI invocations, for `aiython eval`: each invocation's
// block (file:line and mode), what the model answered (the terminal call's outcome, or why the
// invocation failed), and what it cost (tokens of each answer, USD of each request sent).

import { createHash } from "node:crypto";
import fs from "node:fs";

export interface InvocationResult {
  /** "file:line" as the run reports it (project-relative). */
  block: string;
  mode: "block" | "recovery";
  /** A digest of what the model was asked first (the statement, its context, the values it saw): the same question gets the same input. */
  input: string;
  /** Recovery: which consultation of the failing statement this was (1 or 2, SPEC §4.2); null for a block. */
  attempt: number | null;
  /** The answer in one line: `literal "bug"`, `expression sum(xs)`, `retry`, `failed: …`. */
  answer: string;
  /** True when the invocation finished (the block got its value, the recovery its decision). */
  finished: boolean;
  tokens: number;
  /** USD; null when a request had no price. */
  costUsd: number | null;
}

interface Event {
  type: string;
  invocation: string;
  [field: string]: unknown;
}

export function readTrace(file: string): InvocationResult[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const byId = new Map<string, InvocationResult & { terminal: string | null }>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let event: Event;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (event.type === "invocation_start") {
      const mode = event.mode === "recovery" ? "recovery" : "block";
      byId.set(event.invocation, { block: `${event.filename}:${event.line}`, mode, input: "", attempt: null, answer: "", finished: false, tokens: 0, costUsd: 0, terminal: null });
      continue;
    }
    const inv = byId.get(event.invocation);
    if (!inv) continue;
    if (event.type === "model_request" && event.round === 1) {
      const messages = event.messages as { role: string; content: string | null }[];
      inv.input = digest(messages);
      if (inv.mode === "recovery") inv.attempt = attemptOf(messages);
    }
    if (event.type === "model_response") inv.tokens += (event.usage as { total_tokens?: number } | undefined)?.total_tokens ?? 0;
    if (event.type === "model_attempt") inv.costUsd = inv.costUsd === null || event.cost_usd === null ? null : inv.costUsd + Number(event.cost_usd ?? 0);
    if (event.type === "tool_call" && (event.name === "finish" || event.name === "recover")) inv.terminal = terminalText(event.arguments as Record<string, unknown>);
    if (event.type === "outcome") {
      const end = event.end as { status: string; reason?: string };
      inv.finished = end.status === "finished";
      inv.answer = inv.finished ? (inv.terminal ?? "finished") : `failed: ${oneLine(end.reason ?? "")}`;
    }
  }
  return [...byId.values()].map(({ terminal: _terminal, ...inv }) => inv);
}

function digest(messages: { role: string; content: string | null }[]): string {
  const asked = messages.filter((m) => m.role === "user").map((m) => m.content ?? "");
  return createHash("sha256").update(JSON.stringify(asked)).digest("hex").slice(0, 16);
}

function attemptOf(messages: { role: string; content: string | null }[]): number | null {
  const live = messages.filter((m) => m.role === "user")[1]?.content ?? "{}";
  try {
    const attempt = (JSON.parse(live) as { recovery?: { attempt?: unknown } }).recovery?.attempt;
    return typeof attempt === "number" ? attempt : null;
  } catch {
    return null;
  }
}

function terminalText(args: Record<string, unknown>): string {
  const outcome = args.outcome as { kind: string; value?: unknown; code?: string; reason?: string; id?: string } | undefined;
  const value = outcome ? outcomeText(outcome) : null;
  if (typeof args.action === "string") return value && args.action === "complete" ? `complete with ${value}` : String(args.action);
  return value ?? "none";
}

function outcomeText(outcome: { kind: string; value?: unknown; code?: string; reason?: string; id?: string }): string {
  switch (outcome.kind) {
    case "literal":
      return `literal ${oneLine(JSON.stringify(outcome.value))}`;
    case "expression":
      return `expression ${oneLine(outcome.code ?? "")}`;
    case "error":
      return `error ${oneLine(outcome.reason ?? "")}`;
    case "none":
      return "none";
    default:
      return `${outcome.kind} ${outcome.id ?? ""}`.trim();
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
