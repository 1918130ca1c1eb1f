// One open journal (SPEC §11) over one better-sqlite3 connection: its runs (run-log.ts, read back
// by run-reads.ts), exchanges (exchange-log.ts), effects (effect-log.ts) and batches (batch-log.ts). Every write is one
// short statement, in its own transaction or in a short batch of them (`inTransaction`), so
// concurrent processes of one project wait for each other (busy timeout) instead of losing rows.
// Timestamps are ISO 8601 in UTC.

import type BetterSqlite3 from "better-sqlite3";
import { BatchLog } from "./batch-log.js";
import { EffectLog } from "./effect-log.js";
import { ExchangeLog } from "./exchange-log.js";
import { RunLog } from "./run-log.js";
import { RunReads } from "./run-reads.js";
import { Statements } from "./statements.js";

export class Journal {
  readonly runs: RunLog;
  readonly reads: RunReads;
  readonly exchanges: ExchangeLog;
  readonly effects: EffectLog;
  readonly batches: BatchLog;

  constructor(
    private readonly db: BetterSqlite3.Database,
    /** Absolute path of the database file. */
    readonly file: string,
    /** Opened to read only (a read-only folder or file): writes fail. */
    readonly readOnly = false,
  ) {
    const statements = new Statements(db);
    this.runs = new RunLog(statements);
    this.reads = new RunReads(statements);
    this.exchanges = new ExchangeLog(statements);
    this.effects = new EffectLog(statements);
    this.batches = new BatchLog(statements);
  }

  /** Runs `writes` in one transaction, which takes the write lock at its start: all of them are kept, or none. */
  inTransaction(writes: () => void): void {
    this.db.transaction(writes).immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
