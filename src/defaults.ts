// Every behaviour-changing default and fixed bound of aiython, in one place (STYLE habit 6):
// change a number here and it changes everywhere. Sections by owner; each owner imports its
// section from here and defines none of its own. Imports nothing.

// ---- the host process (src/recovery/bridge, src/run) ----------------------------------------

/** How long a child that ignores a relayed SIGTERM/SIGHUP gets before SIGKILL. */
export const KILL_GRACE_MS = Number(process.env.AIYTHON_KILL_GRACE_MS) > 0 ? Number(process.env.AIYTHON_KILL_GRACE_MS) : 5000;

/** How long the host waits for the interpreter to report a SIGINT before relaying one itself. */
export const SIGINT_NOTICE_WAIT_MS = 100;

/** Signals that end a run without a message: the user or the system asked for it. */
export const QUIET_SIGNALS: ReadonlySet<string> = new Set(["SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE"]);

// ---- configuration (src/config, SPEC §7) ----------------------------------------------------

/** The permissions of SPEC §7; a profile grants all of them unless it says otherwise. */
export const PERMISSIONS = [
  "read_asset",
  "read_code",
  "network",
  "generate_file",
  "write_filesystem",
  "execute_code",
] as const;

export const CONFIG_FILE_NAME = "aiython.toml";
export const CONFIG_VERSION = 3;
export const DEFAULT_PROFILE = "default";
/** Written by `aiython setup --set-key`, relative to the project root. */
export const CREDENTIALS_FILE = ".aiython/credentials.env";

export const CONFIG_DEFAULTS = {
  prompt: "",
  timeoutSeconds: 120,
  maxRounds: 16,
  contextValues: true,
  permissions: PERMISSIONS as readonly (typeof PERMISSIONS)[number][],
  journal: true,
  maxConcurrency: 8,
} as const;

export const CONFIG_BOUNDS = {
  maxRounds: { min: 1, max: 100 },
  maxConcurrency: { min: 1, max: 256 },
} as const;

/** Environment variables of the environment-only form (no aiython.toml found). */
export const ENV_MODEL = "AIYTHON_MODEL";
export const ENV_OPENAI_BASE_URL = "OPENAI_BASE_URL";
export const ENV_OPENAI_API_KEY = "OPENAI_API_KEY";

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
/** `aiython runs list` shows this many runs unless told otherwise. */
export const RUNS_LIST_DEFAULT_LIMIT = 20;

// ---- the chat client (src/capabilities/chat, SPEC §5.4) ------------------------------------

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

// ---- the model tool loop (src/recovery/invocation, SPEC §5) -------------------------------
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

/** Request body budget for a simple one-line block, system prompt and tools included (§5.1, §12). */
export const SIMPLE_BLOCK_REQUEST_BUDGET_BYTES = 6000;

/** The permission that gates `evaluate`, `execute` and `expression` outcomes (§5.2, §7). */
export const EXECUTE_CODE_PERMISSION = "execute_code";

// ---- processes and the mailbox (src/run, src/mailbox, SPEC §8) ---------------------------------

export const MAILBOX_LIMITS = {
  /** Unread messages a participant may hold; a send past it fails with a MailboxError. */
  maxUnread: 100,
  /** Largest payload, as the UTF-8 bytes of its JSON text. */
  maxPayloadBytes: 64 * 1024,
  /** Message ids a participant remembers, so that a message sent twice is delivered once. */
  rememberedIds: 10_000,
  /** Longest participant name. */
  maxNameLength: 64,
} as const;
