// The per-invocation counters of SPEC §11 that the orchestrator can know. The caller adds
// `filename`, `line` and `mode` from the pause request. Definitions:
// - model_calls / request_bytes / token_usage / cost_usd: every HTTP request the model port
//   reported sending (ModelAttempt: retries and fallbacks too, answered or not, SPEC §11).
// - replayed: answers the port took from the journal; they cost nothing and count nothing else.
// - batched: model calls sent as lines of a Batch API batch (SPEC §14), priced at the batch price.
// - provider_seconds: from each answer (its retries and backoff included).
// - tool_calls / tool_counts: calls that ran (sent to the frame, or a `finish` with an `error`
//   outcome, which ends the invocation without the frame); calls of rejected batches and calls
//   skipped after an earlier failure are not counted.
// - tool_failures: calls that ran and answered with an error (type violations included).
// - invalid_batches / empty_responses: rejected batches and responses without a tool call.

import type { InvocationStats } from "../invocation-record.js";
import type { ModelAttempt, ModelResponse, TokenUsage } from "../model-port.js";

export type { InvocationStats };

export function newInvocationStats(): InvocationStats {
  return {
    model_calls: 0,
    replayed: 0,
    batched: 0,
    tool_calls: 0,
    tool_counts: {},
    request_bytes: 0,
    token_usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 },
    invalid_batches: 0,
    empty_responses: 0,
    tool_failures: 0,
    provider_seconds: 0,
    invocation_seconds: 0,
    cost_usd: 0,
    unpriced_routes: [],
  };
}

export function countAttempt(stats: InvocationStats, attempt: ModelAttempt): void {
  stats.model_calls += 1;
  if (attempt.batched) stats.batched += 1;
  stats.request_bytes += attempt.requestBytes;
  const usage = attempt.usage ?? {};
  for (const key of Object.keys(stats.token_usage) as (keyof TokenUsage)[]) {
    stats.token_usage[key] += usage[key] ?? 0;
  }
  const cost = attempt.costUsd ?? null;
  if (cost === null) {
    stats.cost_usd = null;
    if (!stats.unpriced_routes.includes(attempt.route)) stats.unpriced_routes.push(attempt.route);
  } else if (stats.cost_usd !== null) {
    stats.cost_usd += cost;
  }
}

export function countResponse(stats: InvocationStats, response: ModelResponse): void {
  if (response.replayed) stats.replayed += 1;
  else stats.provider_seconds += response.providerSeconds;
}

export function countToolCall(stats: InvocationStats, name: string, failed: boolean): void {
  stats.tool_calls += 1;
  stats.tool_counts[name] = (stats.tool_counts[name] ?? 0) + 1;
  if (failed) stats.tool_failures += 1;
}
