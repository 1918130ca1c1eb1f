// This run's use of the journal (SPEC §11). Rows are queued and written in batches
// (journal-writes.ts); the database opens when the first batch holding a model exchange is
// written, or at the first lookup, never between an answer and the program's next step. The
// invocations that came before the first exchange wait in memory. A run in which no model
// answered (none was reached, or none could be: an unreachable server) writes nothing and leaves
// no `.aiython/` behind, as python3 would not — unless a signal ended it while invocations ran:
// that run is recorded, with its signal. Writes go in order, after the open; a read and the run's
// end write what is pending first. Anything that goes wrong — the journal cannot be opened, or a
// write fails later — prints one `aiython: journal disabled: …` line and the run goes on
// unrecorded: the journal never costs the program its output. The journal's code and SQLite are
// imported when a profile that records makes its model port (`warmUp`: while the program runs up
// to its first block) or at the open, so a run without blocks or failures never loads them.

import type { InvocationEntry, Journal, RunEnd, RunStart } from "../journal/index.js";
import { REPLAY_MISS_CANDIDATES } from "../defaults.js";
import { PendingWrites } from "./journal-writes.js";
import type { ExchangeToRecord } from "./recording-model.js";
import type { Redactor } from "./redact.js";
import type { RecordedRequest } from "./replay-miss.js";

export interface JournalSessionOptions {
  projectRoot: string;
  cwd: string;
  /** Record this run (runs, invocations, exchanges). False: open an existing journal to read only. */
  record: boolean;
  run: RunStart;
  redact: Redactor;
  /** Prints one line on stderr (the `aiython: ` prefix is the caller's). */
  warn: (message: string) => void;
}

interface Open {
  journal: Journal;
  runId: number | null;
}

export class JournalSession {
  private opening: Promise<Open | null> | null = null;
  private failure: string | null = null;
  private finished = false;
  /** An exchange was recorded: the run is worth its row. */
  private exchanged = false;
  /** Invocations recorded before the first exchange. */
  private waiting: InvocationEntry[] = [];
  /** The journal's error for "cannot be opened", once its module is loaded. */
  private unavailableError: (abstract new (...args: never[]) => Error) | null = null;
  private readonly pending = new PendingWrites<Open>(() => this.flush());

  constructor(private readonly opts: JournalSessionOptions) {}

  /** The open journal (opened now if this is the first use), or null. */
  private get ready(): Promise<Open | null> {
    return (this.opening ??= this.open());
  }

  /** Loads the journal's code and SQLite now, ahead of the first exchange; nothing is opened or created. */
  warmUp(): void {
    if (!this.opts.record || this.opening !== null) return;
    import("../journal/index.js").then((journal) => journal.loadSqlite()).catch(() => undefined); // the open reports a failure
  }

  /** Queues the exchange for the next batch, which opens the journal if nothing has yet. */
  recordExchange({ at, stored }: ExchangeToRecord): void {
    if (!this.opts.record) return;
    const { redact } = this.opts;
    this.exchanged = true;
    this.write((open) => {
      const exchange = stored();
      open.journal.putExchange(open.runId, { ...exchange, requestJson: redact(exchange.requestJson), responseJson: redact(exchange.responseJson) }, at);
    });
  }

  recordInvocation(entry: InvocationEntry): void {
    if (!this.opts.record) return;
    if (!this.exchanged) {
      this.waiting.push(entry);
      return;
    }
    this.write((open) => open.runId !== null && open.journal.addInvocation(open.runId, entry));
  }

  /** The stored answer JSON for a request key (see ExchangeLookup). */
  async lookup(key: string): Promise<string | null | { unavailable: string }> {
    const open = await this.ready;
    if (!open) return { unavailable: this.failure ?? "it could not be opened" };
    this.drain(open);
    try {
      return open.journal.findExchange(key)?.responseJson ?? null;
    } catch (error) {
      this.disable(error);
      return { unavailable: this.failure ?? "it could not be read" };
    }
  }

  /** The recorded requests about one block, newest first; none when unreadable. */
  async candidates(block: string): Promise<RecordedRequest[]> {
    const open = await this.ready;
    if (!open) return [];
    this.drain(open);
    try {
      return open.journal.exchangesOfBlock(block, REPLAY_MISS_CANDIDATES).map((e) => ({ requestJson: e.requestJson, runId: e.runId ?? null, recordedAt: e.recordedAt ?? null }));
    } catch {
      return [];
    }
  }

  /** Ends the run's row and closes the database; later calls do nothing. */
  async finish(end: RunEnd): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    if (this.opening === null) {
      // Nothing recorded and nothing looked up: no journal. Invocations cut off by a signal make the run worth its row.
      if (!this.exchanged && !(this.opts.record && end.signal !== null && this.waiting.length)) return;
      this.opening = this.open();
    }
    const open = await this.opening;
    if (!open) return;
    this.drain(open);
    try {
      if (open.runId !== null && this.failure === null) open.journal.endRun(open.runId, end);
    } catch (error) {
      this.disable(error);
    } finally {
      open.journal.close();
    }
  }

  private async open(): Promise<Open | null> {
    try {
      const { openJournal, JournalUnavailableError } = await import("../journal/index.js");
      this.unavailableError = JournalUnavailableError;
      const journal = await openJournal({ projectRoot: this.opts.projectRoot, cwd: this.opts.cwd, create: this.opts.record });
      if (!journal) {
        this.failure = "there is no journal in this project yet";
        return null;
      }
      try {
        const runId = this.opts.record ? journal.startRun(this.opts.run) : null;
        if (runId !== null) for (const entry of this.waiting.splice(0)) journal.addInvocation(runId, entry);
        return { journal, runId };
      } catch (error) {
        journal.close();
        throw error;
      }
    } catch (error) {
      this.disable(error);
      return null;
    }
  }

  /** Queues a write; it waits for the open and goes in the next batch. */
  private write(work: (open: Open) => unknown): void {
    if (this.finished || this.failure !== null) return;
    this.pending.add(work);
  }

  private flush(): void {
    void this.ready.then((open) => (open ? this.drain(open) : this.pending.discard()));
  }

  /** Writes every pending row now, in one transaction; a failure disables the journal and drops the batch. */
  private drain(open: Open): void {
    if (this.failure !== null) return this.pending.discard();
    try {
      this.pending.drain(open, (writes) => open.journal.inTransaction(writes));
    } catch (error) {
      this.disable(error);
    }
  }

  private disable(error: unknown): void {
    if (this.failure !== null) return;
    this.failure =
      this.unavailableError !== null && error instanceof this.unavailableError
        ? error.message
        : `writing the journal failed (${(error as { code?: string }).code ?? (error as Error).message}); the rest of this run is not recorded`;
    if (this.opts.record) this.opts.warn(`journal disabled: ${this.failure}`);
  }
}
