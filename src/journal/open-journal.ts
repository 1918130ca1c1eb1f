// Opening the journal (SPEC §11): `.aiython/aiython.sqlite` under the project root, the folder
// mode 0700 and the file 0600 set explicitly (SQLite gives its -wal and -shm files the database's
// mode), WAL with a busy timeout so several processes of one project can write at once, and the
// schema migrated. better-sqlite3 is imported here and nowhere else, lazily: a run that never
// records loads no SQLite at all (start-up budget, §12).
//
// Every way this can fail — no permission, a read-only disk, a garbage or newer-schema file, a
// native module that will not load — becomes one JournalUnavailableError whose message says what
// is wrong and what to do; callers turn it into a warning and run on without a journal. A reader
// (`create: false`) that cannot write opens the journal read-only instead (read-journal.ts).

import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { JOURNAL_BUSY_TIMEOUT_MS, JOURNAL_DIR, JOURNAL_DIR_MODE, JOURNAL_FILE, JOURNAL_FILE_MODE, JOURNAL_OPEN_ATTEMPTS } from "../defaults.js";
import { Journal } from "./journal.js";
import { migrate } from "./migrations.js";
import { openReadOnly } from "./read-journal.js";
import { JournalUnavailableError } from "./unavailable.js";

export { JournalUnavailableError };

export interface OpenJournalOptions {
  projectRoot: string;
  /**
   * False: open an existing journal only (readers such as `aiython runs`, a replay that cannot
   * record); null when there is none. A reader that cannot write gets it read-only.
   */
  create: boolean;
  /** Names the file in messages relative to this folder when inside it. */
  cwd?: string;
}

export function journalPath(projectRoot: string): string {
  return path.join(projectRoot, JOURNAL_DIR, JOURNAL_FILE);
}

/**
 * The nearest folder at or above `start` holding a journal, searched as aiython.toml is (SPEC
 * §7): parents up to and including the first folder that holds `.git`. Null when there is none.
 */
export function nearestJournalRoot(start: string): string | null {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (fs.statSync(journalPath(dir), { throwIfNoEntry: false })?.isFile()) return dir;
    if (fs.statSync(path.join(dir, ".git"), { throwIfNoEntry: false }) || path.dirname(dir) === dir) return null;
  }
}

export async function openJournal(opts: OpenJournalOptions & { create: true }): Promise<Journal>;
export async function openJournal(opts: OpenJournalOptions): Promise<Journal | null>;
export async function openJournal(opts: OpenJournalOptions): Promise<Journal | null> {
  try {
    const opened = await openDatabase(opts);
    return opened && new Journal(opened.db, opened.file);
  } catch (error) {
    if (opts.create || !(error instanceof JournalUnavailableError) || !cannotWrite(error)) throw error;
    const file = journalPath(opts.projectRoot);
    return new Journal(openReadOnly(await loadSqlite(), file, display(file, opts.cwd ?? process.cwd())), file, true);
  }
}

/** The project's database, prepared, opened in WAL mode and migrated; null when `create` is false and there is none. */
export async function openDatabase(opts: OpenJournalOptions): Promise<{ db: BetterSqlite3.Database; file: string } | null> {
  const file = journalPath(opts.projectRoot);
  const shown = display(file, opts.cwd ?? process.cwd());
  if (opts.create) {
    prepareFiles(file, shown);
  } else if (!fs.existsSync(file)) {
    return null;
  }
  const Database = await loadSqlite();
  for (let attempt = 1; ; attempt += 1) {
    let db: BetterSqlite3.Database | null = null;
    try {
      db = new Database(file, { fileMustExist: true, timeout: JOURNAL_BUSY_TIMEOUT_MS });
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      // better-sqlite3 builds SQLite with a 16 MB page cache, which a long run fills a page at a
      // time: the host's memory grew by kilobytes per block to 10,000 blocks (bench/block-memory).
      // The journal appends and looks up by index; 1 MiB holds the pages it touches.
      db.pragma("cache_size = -1024");
      migrate(db, shown);
      return { db, file };
    } catch (error) {
      db?.close();
      if (error instanceof JournalUnavailableError) throw error;
      if (sqliteCode(error) === "SQLITE_BUSY" && attempt < JOURNAL_OPEN_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
        continue;
      }
      throw new JournalUnavailableError(explain(error, shown), readOnlyFailure(error) ? "read-only" : "other");
    }
  }
}

/** Creates the folder (0700, with a .gitignore) and the empty database file (0600) if missing. */
function prepareFiles(file: string, shown: string): void {
  const dir = path.dirname(file);
  try {
    fs.mkdirSync(dir, { mode: JOURNAL_DIR_MODE });
    fs.chmodSync(dir, JOURNAL_DIR_MODE);
    fs.writeFileSync(path.join(dir, ".gitignore"), "# aiython's per-project state (journal, credentials); never commit it\n*\n", { mode: 0o600 });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw new JournalUnavailableError(explain(error, path.dirname(shown)));
    if (!fs.statSync(dir).isDirectory()) throw new JournalUnavailableError(`${JOURNAL_DIR} in ${path.dirname(dir)} is not a folder; remove or rename it`);
  }
  try {
    fs.closeSync(fs.openSync(file, "wx", JOURNAL_FILE_MODE));
    fs.chmodSync(file, JOURNAL_FILE_MODE);
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw new JournalUnavailableError(explain(error, shown));
    tightenMode(file);
  }
}

/** A journal made by hand or by an older version may be readable by others: make it owner-only. */
function tightenMode(file: string): void {
  try {
    const stat = fs.statSync(file);
    if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) fs.chmodSync(file, JOURNAL_FILE_MODE);
  } catch {
    // Not ours to change; SQLite reports any real problem when it opens the file.
  }
}

/** better-sqlite3, loaded once (a session loads it ahead of its first write: observe/journal-session.ts). */
export async function loadSqlite(): Promise<typeof BetterSqlite3> {
  try {
    return (await import("better-sqlite3")).default;
  } catch (error) {
    throw new JournalUnavailableError(`the SQLite module (better-sqlite3) could not be loaded (${(error as Error).message.split("\n")[0]}); reinstall aiython`);
  }
}

/** The open failed for want of write access (the folder or file is read-only), not for what the file holds. */
function cannotWrite(error: JournalUnavailableError): boolean {
  return error.reason === "read-only";
}

function readOnlyFailure(error: unknown): boolean {
  const sqlite = sqliteCode(error);
  if (sqlite) return sqlite.startsWith("SQLITE_READONLY") || sqlite.startsWith("SQLITE_CANTOPEN") || sqlite.startsWith("SQLITE_PERM");
  return ["EACCES", "EPERM", "EROFS"].includes(errnoCode(error) ?? "");
}

function explain(error: unknown, shown: string): string {
  const sqlite = sqliteCode(error);
  if (sqlite === "SQLITE_NOTADB" || sqlite?.startsWith("SQLITE_CORRUPT")) {
    return `${shown} is not a readable SQLite database (${sqlite}); move it away and the next run starts a new journal`;
  }
  if (sqlite?.startsWith("SQLITE_READONLY") || sqlite?.startsWith("SQLITE_CANTOPEN") || sqlite?.startsWith("SQLITE_PERM")) {
    return `${shown} cannot be opened for writing (${sqlite}); check the permissions of ${path.dirname(shown) || "."} or run with --no-journal`;
  }
  if (sqlite === "SQLITE_BUSY") return `${shown} stayed locked by another process; run again or use --no-journal`;
  if (sqlite) return `${shown}: ${sqlite}`;
  const errno = errnoCode(error);
  const reasons: Record<string, string> = {
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EROFS: "read-only file system",
    ENOSPC: "no space left on the device",
    ENOTDIR: "a path component is not a folder",
    ENOENT: "the project folder does not exist",
  };
  if (errno) return `cannot create ${shown}: ${reasons[errno] ?? errno}; check the folder's permissions or run with --no-journal`;
  return `${shown}: ${(error as Error).message}`;
}

function sqliteCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : null;
}

function errnoCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && !code.startsWith("SQLITE_") ? code : null;
}

function display(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}
