// The defaults and bounds of the tools the host serves itself, not on the paused frame: SPEC §10's
// capabilities and run_plan, §9's code-reading tools and §8's mailbox. The rest of aiython's
// defaults are beside this file in defaults.ts, under the same rule: change a number here and it
// changes everywhere; each owner imports its section and defines none of its own. Imports nothing.

// ---- capabilities and run_plan (src/capabilities, SPEC §10) ---------------------------------

/**
 * The capability names of SPEC §10 (re-exported by src/capabilities/names.ts, which the frontend
 * is given to check `capability` directives). Routed ones have a `[capabilities.NAME]` table in
 * aiython.toml; `indexing` and `semantic_search` are local and use the `embedding` route.
 */
export const ROUTED_CAPABILITIES = [
  "vision",
  "document_understanding",
  "embedding",
  "reranking",
  "speech_to_text",
  "text_to_speech",
  "image_generation",
  "image_editing",
  "video",
] as const;
export const LOCAL_CAPABILITIES = ["indexing", "semantic_search"] as const;
export const CAPABILITY_NAMES: readonly string[] = [...ROUTED_CAPABILITIES, ...LOCAL_CAPABILITIES];

export const PLAN_DEFAULTS = {
  /** Steps of one run_plan call (SPEC §10). */
  maxSteps: 64,
  /** Pure steps that run at once (SPEC §10). */
  workers: 4,
  /** How long a cacheable service call's result is reused (SPEC §10). */
  cacheTtlMs: 24 * 60 * 60 * 1000,
  /** Retries of a pure call after 429, 5xx or a dropped connection (effects: only when nothing was sent). */
  maxRetries: 3,
  backoffBaseMs: 300,
  backoffMaxMs: 4_000,
  /** Texts per /v1/embeddings request. */
  embeddingBatch: 64,
  /** Characters per chunk when documents are chunked locally (document_understanding, indexing). */
  chunkChars: 1_200,
  /** Files a folder asset may expand to, and bytes any one asset may have. */
  maxAssetFiles: 2_000,
  maxAssetBytes: 50 * 1024 * 1024,
  /** Characters of document text sent with a document_understanding question. */
  maxDocumentPromptChars: 60_000,
  /** Nearest hits semantic_search returns unless told otherwise, and at most. */
  searchK: 5,
  maxSearchK: 100,
  /** Video job status polls: interval (AIYTHON_JOB_POLL_MS overrides, for tests) and, for `aiython jobs resume`, the wait. */
  jobPollMs: Number(process.env.AIYTHON_JOB_POLL_MS) > 0 ? Number(process.env.AIYTHON_JOB_POLL_MS) : 2_000,
  jobResumeTimeoutMs: 60 * 60 * 1000,
} as const;

/** Generated media, under the project root (SPEC §10). */
export const ARTIFACTS_DIR = ".aiython/artifacts";

// ---- code-reading tools (src/invocation/code-reading, SPEC §9) ---------------------------------

export const CODE_READING_LIMITS = {
  /** Lines one `read_code` call returns at most. */
  readLines: 400,
  /** Bytes (UTF-8) of text one `read_code` call returns at most. */
  readBytes: 32_000,
  /** Files larger than this are neither read nor searched. */
  fileBytes: 2_000_000,
  /** Matches one `search_code` call returns at most, and characters shown of each matching line. */
  searchMatches: 50,
  searchLineChars: 200,
  /** Bytes one `search_code` call reads at most, all files together. */
  searchBytes: 20_000_000,
  /** Entries one `list_code_files` call returns at most. */
  listEntries: 500,
  /** Directory entries one walk (list or search) looks at before it stops. */
  walkEntries: 20_000,
} as const;

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
