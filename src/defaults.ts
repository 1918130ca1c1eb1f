// Every behaviour-changing default and fixed bound of aiython, in one place (STYLE habit 6):
// change a number here and it changes everywhere. Sections by owner; each owner imports its
// section from here and defines none of its own. Imports nothing. Those of the tools the host
// serves itself (capabilities, code reading, the mailbox) are beside it, in host-tool-defaults.ts.

// ---- the host process (src/bridge, src/run) ----------------------------------------

/** How long a child that ignores a relayed SIGTERM/SIGHUP gets before SIGKILL. */
export const KILL_GRACE_MS = Number(process.env.AIYTHON_KILL_GRACE_MS) > 0 ? Number(process.env.AIYTHON_KILL_GRACE_MS) : 5000;

/** How long an interrupted tool (SPEC §9) may go on before the run is ended: nothing else can resume its thread. */
export const TOOL_INTERRUPT_GRACE_MS = Number(process.env.AIYTHON_TOOL_INTERRUPT_GRACE_MS) > 0 ? Number(process.env.AIYTHON_TOOL_INTERRUPT_GRACE_MS) : 5000;

/** How long the host waits before relaying a SIGINT it did not get from its terminal (the interpreter may have ended of its own). */
export const SIGINT_RELAY_DELAY_MS = 100;

/** Signals that end a run without a message: the user or the system asked for it. */
export const QUIET_SIGNALS: ReadonlySet<string> = new Set(["SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE"]);

// ---- configuration (src/config, SPEC §7) ----------------------------------------------------

/** The permissions of SPEC §7; a profile grants all of them unless it says otherwise. */
export const PERMISSIONS = ["read_asset", "read_code", "network", "generate_file", "write_filesystem", "execute_code"] as const;

export const CONFIG_FILE_NAME = "aiython.toml";
export const CONFIG_VERSION = 3;
export const DEFAULT_PROFILE = "default";
/** Written by `aiython setup --set-key`, relative to the project root. */
export const CREDENTIALS_FILE = ".aiython/credentials.env";

/** `recovery_notice` (SPEC §4.2): each decision said as it happens, one line at the end, or nothing. */
export const RECOVERY_NOTICE_MODES = ["each", "summary", "off"] as const;

/** `type_contracts` (SPEC §6): check annotations on AI results only, or on all annotated project code too. */
export const TYPE_CONTRACTS_MODES = ["ai", "all"] as const;

export const CONFIG_DEFAULTS = {
  prompt: "",
  timeoutSeconds: 120,
  /** `tool_timeout` (SPEC §9): seconds one tool call may run before it is interrupted, within `timeout`. */
  toolTimeoutSeconds: 60,
  /** `max_response_mb`: megabytes of one model answer's body; a larger one fails the request unread. */
  maxResponseMb: 32,
  maxRounds: 16,
  contextValues: true,
  recoveryNotice: "each" as (typeof RECOVERY_NOTICE_MODES)[number],
  permissions: PERMISSIONS as readonly (typeof PERMISSIONS)[number][],
  journal: true,
  cache: true,
  typeContracts: "ai" as (typeof TYPE_CONTRACTS_MODES)[number],
  maxConcurrency: 8,
  /** `[batch]` (SPEC §14): seconds without a new request before a batch is submitted, seconds between polls, requests per batch. */
  batchWindowSeconds: 2,
  batchPollSeconds: 30,
  batchMaxRequests: 50_000,
} as const;

export const CONFIG_BOUNDS = {
  maxRounds: { min: 1, max: 100 },
  maxConcurrency: { min: 1, max: 256 },
  /** `memory_limit` / `--memory-limit` in MB: below this not even the interpreter starts. */
  memoryLimitMb: { min: 16 },
  /** `batch.max_requests`: the OpenAI Batch API's limit of requests in one batch. */
  batchMaxRequests: { min: 1, max: 50_000 },
} as const;

/** Environment variables of the environment-only form (no aiython.toml found). */
export const ENV_MODEL = "AIYTHON_MODEL";
export const ENV_OPENAI_BASE_URL = "OPENAI_BASE_URL";
export const ENV_OPENAI_API_KEY = "OPENAI_API_KEY";
/** `aiython eval` tells its k-th run of a program so (1, 2, …); a scripted model's sequences start from it. */
export const ENV_EVAL_RUN = "AIYTHON_EVAL_RUN";

// ---- the journal (src/journal, SPEC §11) -----------------------------------------------------

/** Folder under the project root that holds the journal (and other per-project state). */
export const JOURNAL_DIR = ".aiython";
export const JOURNAL_FILE = "aiython.sqlite";
/** The folder and the database hold program data sent to the model: owner only. */
export const JOURNAL_DIR_MODE = 0o700;
export const JOURNAL_FILE_MODE = 0o600;
/** How long a write waits for another process of the same project holding the write lock. */
export const JOURNAL_BUSY_TIMEOUT_MS = 5000;
/** Opening a new database can race another process switching it to WAL; retried this often. */
export const JOURNAL_OPEN_ATTEMPTS = 5;
/** A run's journal rows are written together, in one transaction, this long after the first of them is queued… */
export const JOURNAL_WRITE_DELAY_MS = 50;
/** …or at once when this many are queued. */
export const JOURNAL_WRITE_BATCH = 200;
/** `aiython runs list` shows this many runs unless told otherwise. */
export const RUNS_LIST_DEFAULT_LIMIT = 20;

// ---- the preparation cache (bridge-py/aiython_bridge/preparation, SPEC §4.1) ---------------

/** Folder under the project root that holds prepared sources. */
export const PREPARATION_CACHE_DIR = ".aiython/cache";
/**
 * The cache's size bound: a write past it evicts the least recently used entries, never one the
 * run has used. A checkpointed module takes about twice its source: 256 MiB holds a project of
 * about 100 MB of Python (sympy's 30 MB take 90 MB).
 */
export const PREPARATION_CACHE_MAX_BYTES = 256 * 1024 * 1024;
/** `AIYTHON_NO_CACHE=1` turns the cache off, as `cache = false` does. */
export const ENV_NO_CACHE = "AIYTHON_NO_CACHE";

// ---- the chat client (src/model, SPEC §5.4) ------------------------------------

export const MODEL_CLIENT_DEFAULTS = {
  /** Retries per route after the first attempt (429, 5xx, dropped connections), SPEC §5.4. */
  maxRetries: 6,
  /**
   * Retries on a 429 before falling through to the next route when one remains (SPEC §5.4): a
   * fallback exists to be used, so a rate-limited route gets a short grace, not the full budget.
   */
  rateLimitRetriesBeforeFallback: 2,
  /** First backoff delay; doubles per retry up to `backoffMaxMs`. */
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  /** Backoff keeps between this fraction and all of the exponential delay (jitter). */
  backoffJitterFloor: 0.5,
  /** Streaming is off unless the route or the client asks for it. */
  stream: false,
  /**
   * Placeholder sent as the bearer token when a route has no key (ollama, local servers): the
   * openai client refuses to start without one, and such servers ignore it.
   */
  placeholderApiKey: "not-needed",
} as const;

// ---- the model tool loop (src/invocation, SPEC §5) -------------------------------
// The configurable bounds (`max_rounds`, `timeout`, `permissions`) default in the configuration
// section above and reach the orchestrator as InvocationSettings.

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

/** How deep a tool call's arguments may nest (SPEC §9: answers nest at least 128 levels); deeper is a batch error, never a crash. */
export const MAX_ARGUMENT_DEPTH = 160;

/** Request body budget for a simple one-line block, system prompt and tools included (§5.1, §12). */
export const SIMPLE_BLOCK_REQUEST_BUDGET_BYTES = 4500;

/** The permission that gates `evaluate`, `execute` and `expression` outcomes (§5.2, §7). */
export const EXECUTE_CODE_PERMISSION = "execute_code";

/** The permission that gates `read_code`, `search_code` and `list_code_files` (§9, §7). */
export const READ_CODE_PERMISSION = "read_code";

// ---- cost and budgets (src/observe, SPEC §13) ------------------------------------------------

/**
 * A token or cost budget checks a request before its tokens are known, estimating its input at
 * this many bytes of request body per token (the usual ratio for English text and JSON).
 */
export const BUDGET_BYTES_PER_TOKEN = 4;

// ---- OpenTelemetry export (src/observe/otel, SPEC §11) ---------------------------------------

/** The longest a run waits at exit for its spans to reach the collector (an unreachable one included). */
export const OTEL_EXIT_FLUSH_MS = 2000;
/** service.name of the spans unless OTEL_SERVICE_NAME says otherwise. */
export const OTEL_SERVICE_NAME = "aiython";

// ---- the journal as a cassette (src/observe, SPEC §11) ---------------------------------------

/** How many recorded requests of the same block a `--replay` miss compares with. */
export const REPLAY_MISS_CANDIDATES = 50;

// ---- aiython setup (SPEC §7) -------------------------------------------------------------------

export const SETUP_DEFAULTS = {
  /** The base URL offered for "another OpenAI-compatible server" (vLLM's default port). */
  customBaseUrl: "http://127.0.0.1:8000/v1",
  /** The key variable written for a custom server when a key is stored and none was named. */
  customKeyEnv: "OPENAI_API_KEY",
  /** How long `--check` waits for its one request. */
  checkTimeoutMs: 30_000,
  /** How long listing /models may take before setup asks for the id instead. */
  listModelsTimeoutMs: 10_000,
} as const;
