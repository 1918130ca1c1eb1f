// What one AI invocation leaves behind (SPEC §11): its counters, how it ended, the trace events
// it emitted, and the record the run keeps of it. Neutral like model-port.ts: the orchestrator
// (src/invocation) produces these, src/observe renders and traces them and src/journal
// stores them, and none of those layers imports another for it.

import type { ChatMessage, TokenUsage, ToolCall } from "./model-port.js";

/** The per-invocation counters of `--stats` and the journal; see invocation/invocation-stats.ts. */
export interface InvocationStats {
  /** HTTP requests sent: retries, fallbacks, repairs included (SPEC §11); never a replayed answer. */
  model_calls: number;
  /** Answers taken from the journal instead of a request (`--replay`). */
  replayed: number;
  /** Requests sent as lines of a Batch API batch (SPEC §14), each also a model call. */
  batched: number;
  tool_calls: number;
  tool_counts: Record<string, number>;
  request_bytes: number;
  token_usage: Required<TokenUsage>;
  invalid_batches: number;
  empty_responses: number;
  tool_failures: number;
  provider_seconds: number;
  invocation_seconds: number;
  /** USD spent on the requests (SPEC §13); null when one of them went to a route without a price. */
  cost_usd: number | null;
  /** Routes of requests that had no price, in order of first use. */
  unpriced_routes: string[];
}

/** What an invocation's capability steps (SPEC §10) cost: provider calls, answers served locally, USD. */
export interface CapabilityStats {
  /** Requests that reached a provider. */
  calls: number;
  /** Answers from the 24 h cache, and from the journal under --replay: no request, no cost. */
  cached: number;
  replayed: number;
  /** Provider calls per capability. */
  counts: Record<string, number>;
  /** USD of the priced calls; null when no call had a price. */
  cost_usd: number | null;
  /** Capabilities whose calls had no price (`price` in [capabilities.NAME]). */
  unpriced: string[];
}

export type InvocationMode = "syntax" | "recovery";

export type RecoverAction = "complete" | "retry" | "reraise";

export type InvocationEnd =
  | { status: "finished"; action?: RecoverAction }
  /** `budget`: a budget (SPEC §13) refused a request; the block raises AIBudgetError. */
  | { status: "failed"; reason: string; missing_capability?: string; permission?: string; budget?: true };

/** One invocation as the run keeps it: where it was, what it counted, how it ended. */
export interface InvocationRecord {
  /** Id within the run, e.g. "inv-2". */
  id: string;
  /** As the bridge reports it (project-relative for a project file). */
  filename: string;
  line: number;
  mode: InvocationMode;
  stats: InvocationStats;
  end: InvocationEnd;
  /** Present when the invocation ran capability steps. */
  capabilities?: CapabilityStats;
}

/** Fields every trace event carries: the invocation id and a timestamp (ms since epoch). */
interface EventBase {
  invocation: string;
  at: number;
}

/**
 * Trace events (§11 `--trace`): the invocation's start, each model request (a round), each HTTP
 * attempt of it, its response or error, each tool call and tool result, and the outcome, in order. They hold conversation content but never a credential: the orchestrator never sees one.
 */
export type InvocationEvent =
  | (EventBase & { type: "invocation_start"; filename: string; line: number; mode: InvocationMode })
  | (EventBase & {
      type: "model_request";
      round: number;
      /** Messages appended since the previous request (all of them on round 1). */
      messages: ChatMessage[];
      message_count: number;
      tools: string[];
    })
  | (EventBase & {
      type: "model_response";
      round: number;
      content: string | null;
      tool_calls: ToolCall[];
      usage?: TokenUsage;
      request_bytes: number;
      provider_seconds: number;
      route: string;
    })
  /** One HTTP request of a round (a retry or a fallback is one more), answered or not. */
  | (EventBase & {
      type: "model_attempt";
      round: number;
      attempt: number;
      route: string;
      server: string;
      status: number | null;
      outcome: string;
      request_bytes: number;
      usage?: TokenUsage;
      started_at: number;
      seconds: number;
      cost_usd: number | null;
    })
  /** The round's call failed (after its retries) or was refused by a budget; `message` is safe to show. */
  | (EventBase & { type: "model_error"; round: number; kind: string; message: string })
  | (EventBase & { type: "tool_call"; call_id: string; name: string; arguments: Record<string, unknown> })
  | (EventBase & { type: "tool_result"; call_id: string; name: string; status: "ok" | "error" | "skipped"; content: string })
  | (EventBase & { type: "outcome"; end: InvocationEnd });
