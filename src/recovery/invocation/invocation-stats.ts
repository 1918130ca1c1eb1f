// The per-invocation counters of SPEC §11 that the orchestrator can know. The caller adds
// `filename`, `line` and `mode` from the pause request. Definitions:
// - model_calls: responses received (empty ones included); a call that threw is not counted.
// - tool_calls / tool_counts: calls that ran (sent to the frame, or a `finish` with an `error`
//   outcome, which ends the invocation without the frame); calls of rejected batches and calls
//   skipped after an earlier failure are not counted.
// - tool_failures: calls that ran and answered with an error (type violations included).
// - invalid_batches / empty_responses: rejected batches and responses without a tool call.

import type { InvocationStats } from "../../invocation-record.js";
import type { ModelResponse, TokenUsage } from "../../model-port.js";

export type { InvocationStats };


export function newInvocationStats(): InvocationStats {
  return {
    model_calls: 0,
    tool_calls: 0,
    tool_counts: {},
    request_bytes: 0,
    token_usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 },
    invalid_batches: 0,
    empty_responses: 0,
    tool_failures: 0,
    provider_seconds: 0,
    invocation_seconds: 0,
  };
}

export function countResponse(stats: InvocationStats, response: ModelResponse): void {
  stats.model_calls += 1;
  stats.request_bytes += response.requestBytes;
  stats.provider_seconds += response.providerSeconds;
  const usage = response.usage ?? {};
  for (const key of Object.keys(stats.token_usage) as (keyof TokenUsage)[]) {
    stats.token_usage[key] += usage[key] ?? 0;
  }
}

export function countToolCall(stats: InvocationStats, name: string, failed: boolean): void {
  stats.tool_calls += 1;
  stats.tool_counts[name] = (stats.tool_counts[name] ?? 0) + 1;
  if (failed) stats.tool_failures += 1;
}
