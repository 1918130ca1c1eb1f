// Every fixed bound of the model tool loop (SPEC §5) in one place: the orchestrator, the tool
// schemas and batch validation read them from here. The configurable ones (`max_rounds`,
// `timeout`, `permissions`, §7) default in src/capabilities/config/defaults.ts and reach the
// orchestrator as InvocationSettings, so they are not repeated here.

/** Consecutive responses without a tool call that fail the invocation; the first gets a nudge (§5.4). */
export const MAX_EMPTY_RESPONSES_IN_A_ROW = 2;

/** Consecutive rejected batches that fail the invocation (§5.4). */
export const MAX_INVALID_BATCHES_IN_A_ROW = 2;

/** Identical failing calls in a row, with no success between, that fail the invocation (§5.4). */
export const MAX_IDENTICAL_FAILURES_IN_A_ROW = 2;

/** `inspect` bounds (§5.2). */
export const INSPECT_DEPTH = { min: 1, max: 3 } as const;
export const INSPECT_LIMIT = { min: 1, max: 100 } as const;

/** Longest `result_id` a model may choose. */
export const MAX_RESULT_ID_LENGTH = 64;

/** Longest `reason` of an `error` outcome kept for the AIError message; the rest is cut. */
export const MAX_ERROR_REASON_CHARS = 1000;

/** Request body budget for a simple one-line block, system prompt and tools included (§5.1, §12). */
export const SIMPLE_BLOCK_REQUEST_BUDGET_BYTES = 6000;

/** The permission that gates `evaluate`, `execute` and `expression` outcomes (§5.2, §7). */
export const EXECUTE_CODE_PERMISSION = "execute_code";
