// The model port: the one shape every layer uses to talk about a chat model (STYLE: neutral
// types, never copied). The chat client in src/model implements ModelPort, the journal's
// recording and replaying ports in src/observe wrap it, and the orchestrator in
// src/invocation depends on it. Shapes follow OpenAI-compatible chat completions so the
// client passes them through without translation. Imports only the neutral StopSignal type.

import type { StopSignal } from "./stop-signal.js";

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ToolSpec {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ModelRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Always "required" (SPEC §5). */
  toolChoice: "required";
}

export interface TokenUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  cached_tokens?: number;
}

export interface ModelResponse {
  message: { content: string | null; tool_calls: ToolCall[] };
  usage?: TokenUsage;
  /** Byte length of the JSON body of the request that produced this answer, as sent. */
  requestBytes: number;
  /** Seconds from the first attempt to the answer: retries, backoff and fallbacks included. */
  providerSeconds: number;
  /** Id of the route that answered (after fallbacks), e.g. "openai/gpt-4.1-mini". */
  route: string;
  /** True when the answer came from the journal (`--replay`), not from a request sent now. */
  replayed?: boolean;
  /** Where the journal keeps this answer, when it keeps it (SPEC §11.2: the effects its tool calls start refer to it). */
  exchange?: ExchangeRef;
}

/** An answer's place in the run's journal: its place in this run's order, and for a replayed answer the recorded one it came from. */
export interface ExchangeRef {
  seq: number;
  from: { run: number | null; seq: number } | null;
}

/**
 * One HTTP request a port sent for a call (SPEC §11: retries and fallbacks are requests too),
 * reported when it ended, answered or not.
 */
export interface ModelAttempt {
  /** Id of the route it went to. */
  route: string;
  /** 1 for the first request of this call, counting across retries and fallback routes. */
  attempt: number;
  /** Byte length of the JSON body as sent (0 when none left). */
  requestBytes: number;
  usage?: TokenUsage;
  /** HTTP status of the answer; null when none came (connection failed, aborted). */
  status: number | null;
  /** "answer", or a short label of what went wrong ("HTTP 500", "connection reset"). */
  outcome: string;
  /** "host:port" of the server. */
  server: string;
  /** When it started (ms since epoch) and how long it took. */
  startedAt: number;
  seconds: number;
  /** What it cost in USD: set by the run's pricing (observe/cost.ts); null when its route has no price. */
  costUsd?: number | null;
  /** Sent as a line of a Batch API batch (SPEC §14): priced at the route's batch price, counted as `batched`. */
  batched?: boolean;
}

/**
 * Told of every HTTP request a call sends. `sending` runs before each one and may refuse it by
 * throwing a ModelCallError (a spent budget, SPEC §13): the request is then not sent.
 */
export interface AttemptObserver {
  sending?(attempt: { route: string; attempt: number }): void;
  sent?(attempt: ModelAttempt): void;
}

export interface ModelCallOptions {
  /** Stops the call (the invocation ended or was cancelled); a real AbortSignal is one too. */
  signal?: StopSignal;
  /** Absolute deadline of the whole invocation, ms since the epoch; requests and retries stop there. */
  deadline: number;
  /** Ports that send HTTP requests report each one here (SPEC §11); a replay reports none. */
  attempts?: AttemptObserver;
  /** The invocation ("inv-3") and round (1, 2, …) the request belongs to, which the journal records with it. */
  origin?: { invocation: string; round: number };
  /** The request's journal key and its occurrence in the run, when a replay already counted them (SPEC §11.1). */
  counted?: { key: string; occurrence: number };
  /** Stops the invocation's deadline until the returned function is called: a request waiting in a batch (SPEC §14) is not the invocation's time. */
  holdDeadline?: () => () => void;
}

export interface ModelPort {
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse>;
}

export type ModelCallErrorKind =
  | "auth"
  | "not_found"
  | "rate_limited"
  | "server"
  | "network"
  | "timeout"
  | "malformed"
  | "cancelled"
  | "permission"
  /** A budget (SPEC §13) refused the request before it was sent. */
  | "budget";

/**
 * The one error a ModelPort throws for a failed call; the orchestrator turns it into the
 * AIError reason of the block. `message` is safe to show: it never holds a key, an
 * Authorization header or a provider's raw error body (SPEC §5.4, §9).
 */
export class ModelCallError extends Error {
  readonly kind: ModelCallErrorKind;
  constructor(kind: ModelCallErrorKind, message: string) {
    super(message);
    this.name = "ModelCallError";
    this.kind = kind;
  }
}
