// The public surface of the journal (SPEC §11): the only module that touches SQLite. Callers
// import from here only.

export { openJournal, loadSqlite, journalPath, nearestJournalRoot, JournalUnavailableError, type OpenJournalOptions } from "./open-journal.js";
export { Journal } from "./journal.js";
export { UNFINISHED_ENDS } from "./run-log.js";
export { exchangeKey, exchangeRequestJson, argsHash, commandKey, type ExchangeRequest } from "./exchange-key.js";
export { canonicalJson } from "../canonical-json.js";
export { SCHEMA_VERSION } from "./migrations.js";
export { JOURNAL_DIR, JOURNAL_FILE, RUNS_LIST_DEFAULT_LIMIT } from "../defaults.js";
export type {
  EffectEntry,
  EffectSummary,
  EndedHow,
  ExchangeEntry,
  FoundAnswer,
  InvocationEntry,
  InvocationStats,
  InvocationSummary,
  RunEnd,
  RunMode,
  RunRecord,
  RunStart,
  RunSummary,
  StoredRequest,
} from "./types.js";
export type { BatchEntry, BatchKind, BatchSummary, CarryingBatch } from "./batch-log.js";
export { openCapabilityStore, CapabilityStoreDb, type StoredChunk, type StoredJob } from "./capability-store.js";
