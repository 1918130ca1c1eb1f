// The open, the queued writes and the failure of one run's journal (SPEC §11), beneath
// JournalSession (journal-session.ts), which says what the run records and looks up. Rows are
// queued and written in batches (journal-writes.ts); the database opens when the first batch is
// written, or at the first lookup. Rows that belong to the run's row wait in memory until the run
// is worth one (becomeWorthARow). Anything that goes wrong disables the journal with one
// `aiython: journal disabled: …` line (when the run records), and the run goes on unrecorded.

import type { Journal, RunEnd } from "../journal/index.js";
import { PendingWrites } from "./journal-writes.js";
import type { FileDigest } from "./source-digests.js";
import { loadJournal, openForRun, type JournalSessionOptions, type Open } from "./journal-open.js";

export type RunWrite = (journal: Journal, runId: number) => void;

export abstract class JournalConnection {
  protected opening: Promise<Open | null> | null = null;
  protected failure: string | null = null;
  private finished = false;
  /** The run is worth its row: an answer was recorded, or a replay looked one up. */
  private worthARow = false;
  /** Writes that belong to the run's row, made before it was worth one. */
  private waiting: RunWrite[] = [];
  /** The journal's error for "cannot be opened", once its module is loaded. */
  private unavailableError: (abstract new (...args: never[]) => Error) | null = null;
  private readonly pending = new PendingWrites<Open>(() => this.flush());
  /** source-digests.ts, loaded with the journal (rows are written only after the open). */
  protected digestsOf: ((files: Iterable<string>, projectRoot: string) => FileDigest[]) | null = null;

  constructor(protected readonly opts: JournalSessionOptions) {}

  /** The open journal (opened now if this is the first use), or null. */
  protected get ready(): Promise<Open | null> {
    return (this.opening ??= this.open());
  }

  /** Ends the run's row and closes the database; later calls do nothing. */
  async finish(end: RunEnd): Promise<void> {
    if (this.finished) return;
    if (this.opening === null) {
      // Nothing recorded and nothing looked up: no journal. Invocations cut off by a signal make the run worth its row.
      if (!this.worthARow && !(this.opts.record && end.signal !== null && this.waiting.length)) return void (this.finished = true);
      this.becomeWorthARow();
      this.opening = this.open();
    }
    const open = await this.opening;
    this.finished = true;
    if (!open) return;
    this.drain(open);
    try {
      if (open.runId !== null && this.failure === null) open.journal.runs.end(open.runId, end);
    } catch (error) {
      this.disable(error);
    } finally {
      open.journal.close();
    }
  }

  /**
   * Writes now, in one transaction after what is pending, on this run's row (made now if the run
   * had none yet): SPEC §14's batches are journaled before they are submitted. The result of
   * `work`, or null when the run is not recorded (no journal, or it failed: said once).
   */
  async writeNow<T>(work: (journal: Journal, runId: number) => T): Promise<T | null> {
    if (!this.opts.record || this.failure !== null) return null;
    this.becomeWorthARow();
    const open = await this.ready;
    if (!open || open.runId === null) return null;
    this.drain(open);
    try {
      let result: T | null = null;
      open.journal.inTransaction(() => (result = work(open.journal, open.runId as number)));
      return result;
    } catch (error) {
      this.disable(error);
      return null;
    }
  }

  /** Reads the journal (opened now if it was not): the result of `work`, or null when it cannot be read. */
  async readNow<T>(work: (journal: Journal) => T): Promise<T | null> {
    const open = await this.ready;
    if (!open) return null;
    this.drain(open);
    try {
      return work(open.journal);
    } catch {
      return null;
    }
  }

  private async open(): Promise<Open | null> {
    try {
      const loaded = await loadJournal();
      this.digestsOf = loaded.digestsOf;
      this.unavailableError = loaded.JournalUnavailableError;
      const open = await openForRun(loaded, this.opts);
      if (!open) this.failure = "there is no journal in this project yet";
      return open;
    } catch (error) {
      this.disable(error);
      return null;
    }
  }

  protected becomeWorthARow(): void {
    if (this.worthARow) return;
    this.worthARow = true;
    for (const work of this.waiting.splice(0)) this.write((open) => open.runId !== null && work(open.journal, open.runId));
  }

  /** A write that belongs to the run's row: queued now if the run is worth one, else kept until it is. */
  protected writeForRun(work: RunWrite): void {
    if (!this.opts.record) return;
    if (!this.worthARow) {
      this.waiting.push(work);
      return;
    }
    this.write((open) => open.runId !== null && work(open.journal, open.runId));
  }

  /** Queues a write; it waits for the open and goes in the next batch. */
  protected write(work: (open: Open) => unknown): void {
    if (this.finished || this.failure !== null) return;
    this.pending.add(work);
  }

  private flush(): void {
    void this.ready.then((open) => (open ? this.drain(open) : this.pending.discard()));
  }

  /** Writes every pending row now, in one transaction; a failure disables the journal and drops the batch. */
  protected drain(open: Open): void {
    if (this.failure !== null) return this.pending.discard();
    if (open.runId === null) return this.pending.discard(); // read only: nothing of this run is kept
    try {
      this.pending.drain(open, (writes) => open.journal.inTransaction(writes));
    } catch (error) {
      this.disable(error);
    }
  }

  protected disable(error: unknown): void {
    if (this.failure !== null) return;
    this.failure =
      this.unavailableError !== null && error instanceof this.unavailableError
        ? error.message
        : `writing the journal failed (${(error as { code?: string }).code ?? (error as Error).message}); the rest of this run is not recorded`;
    if (this.opts.record) this.opts.warn(`journal disabled: ${this.failure}`);
  }
}
