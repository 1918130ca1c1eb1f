// What one AI invocation leaves behind (SPEC §11): its counters, how it ended, the trace events
// it emitted, and the record the run keeps of it. Neutral like model-port.ts: the orchestrator
// (src/recovery/invocation) produces these, src/observe renders and traces them and src/journal
// stores them, and none of those layers imports another for it.

import type { ChatMessage, TokenUsage, ToolCall } from "./model-port.js";

/** The per-invocation counters of `--stats` and the journal; see recovery/invocation/invocation-stats.ts. */
export interface InvocationStats {
  model_calls: number;
  tool_calls: number;
  tool_counts: Record<string, number>;
  request_bytes: number;
  token_usage: Required<TokenUsage>;
  invalid_batches: number;
  empty_responses: number;
  tool_failures: number;
  provider_seconds: number;
  invocation_seconds: number;
}

export type InvocationMode = "syntax" | "recovery";

export type RecoverAction = "complete" | "retry" | "reraise";

export type InvocationEnd =
  | { status: "finished"; action?: RecoverAction }
  | { status: "failed"; reason: string; missing_capability?: string; permission?: string };

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
}

/** Fields every trace event carries: the invocation id and a timestamp (ms since epoch). */
interface EventBase {
  invocation: string;
  at: number;
}

/**
 * Trace events (§11 `--trace`), one per model request, model response, tool call, tool result and
 * outcome. They hold conversation content but never a credential: the orchestrator never sees one.
 */
export type InvocationEvent =
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
  | (EventBase & { type: "tool_call"; call_id: string; name: string; arguments: Record<string, unknown> })
  | (EventBase & { type: "tool_result"; call_id: string; name: string; status: "ok" | "error" | "skipped"; content: string })
  | (EventBase & { type: "outcome"; end: InvocationEnd });
