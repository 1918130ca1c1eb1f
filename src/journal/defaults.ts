// Where the journal lives and how it is opened (SPEC §11), in one place.

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
