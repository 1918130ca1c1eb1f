// A journal opened to read only (SPEC §11: "a journal in a read-only folder can still be read
// (replay, `runs`)"). SQLite opens a database read-only as it is when its folder lets it make the
// WAL's shared-memory file (or that file is there). When it cannot — a read-only folder after the
// last writer closed cleanly — or when the file needs a migration it cannot write, the journal is
// read into memory and read there: its bytes, marked as a rollback-journal database (a WAL
// database cannot be deserialized as one), migrated in memory if it is older. Nothing on disk is
// touched.

import fs from "node:fs";
import type BetterSqlite3 from "better-sqlite3";
import { JOURNAL_BUSY_TIMEOUT_MS } from "../defaults.js";
import { migrate, SCHEMA_VERSION } from "./migrations.js";
import { JournalUnavailableError } from "./unavailable.js";

/** Offsets of the file format's read and write versions in SQLite's header: 2 means WAL. */
const HEADER_WRITE_VERSION = 18;
const HEADER_READ_VERSION = 19;

export function openReadOnly(Database: typeof BetterSqlite3, file: string, shown: string): BetterSqlite3.Database {
  let db: BetterSqlite3.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: JOURNAL_BUSY_TIMEOUT_MS });
    const version = Number(db.pragma("user_version", { simple: true }));
    refuseNewer(version, shown);
    if (version === SCHEMA_VERSION) return db;
    db.close();
  } catch (error) {
    db?.close();
    if (error instanceof JournalUnavailableError) throw error;
  }
  return inMemoryCopy(Database, file, shown);
}

function inMemoryCopy(Database: typeof BetterSqlite3, file: string, shown: string): BetterSqlite3.Database {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new JournalUnavailableError(`${shown} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check its permissions`);
  }
  if (bytes.length > HEADER_READ_VERSION && bytes[HEADER_WRITE_VERSION] === 2) {
    bytes[HEADER_WRITE_VERSION] = 1;
    bytes[HEADER_READ_VERSION] = 1;
  }
  let db: BetterSqlite3.Database | null = null;
  try {
    db = new Database(bytes);
    refuseNewer(Number(db.pragma("user_version", { simple: true })), shown);
    migrate(db, shown);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof JournalUnavailableError) throw error;
    throw new JournalUnavailableError(`${shown} is not a readable SQLite database (${(error as { code?: string }).code ?? (error as Error).message}); move it away`);
  }
}

function refuseNewer(version: number, shown: string): void {
  if (version > SCHEMA_VERSION) {
    throw new JournalUnavailableError(`${shown} was written by a newer aiython (schema ${version}, this one knows ${SCHEMA_VERSION}); upgrade aiython or move the file away`);
  }
}
