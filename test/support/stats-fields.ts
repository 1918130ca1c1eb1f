// The fields of one invocation in `--stats=json` (SPEC §11), in order: the unit and end-to-end
// stats tests both check against this list.

export const STATS_FIELDS = [
  "filename",
  "line",
  "mode",
  "model_calls",
  "replayed",
  "batched",
  "tool_calls",
  "tool_counts",
  "request_bytes",
  "token_usage",
  "invalid_batches",
  "empty_responses",
  "tool_failures",
  "provider_seconds",
  "invocation_seconds",
  "cost_usd",
  "unpriced_routes",
];
