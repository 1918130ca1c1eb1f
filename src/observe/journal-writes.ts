// The journal session's pending writes (SPEC §11), written together: a block's exchange and its
// invocation row are queued, not written at once, and every write queued within
// JOURNAL_WRITE_DELAY_MS goes to the database in one transaction. One commit per block cost more
// than the rest of the journal's work for it (each commit writes the table's and its indexes'
// pages to the WAL again), and the work ran on the host's main thread between a block's answer
// and the next pause. Batched, the same rows are written at a fraction of that, and the key and
// canonical JSON of each request are computed in a loop, after the blocks they belong to.
//
// A reader (a replay lookup in the same run) and the run's end drain the queue first, so nothing
// reads around a pending row, and every row is written before the run's end is. A host that dies
// without ending its run (SIGKILL, an internal error) loses at most its last JOURNAL_WRITE_DELAY_MS
// of rows.

import { JOURNAL_WRITE_BATCH, JOURNAL_WRITE_DELAY_MS } from "../defaults.js";

export class PendingWrites<T> {
  private pending: ((target: T) => unknown)[] = [];
  private timer: NodeJS.Timeout | null = null;

  /** `flush` is called when the queue is due: JOURNAL_WRITE_DELAY_MS after its first write, or at once when it is full. */
  constructor(private readonly flush: () => void) {}

  add(work: (target: T) => unknown): void {
    this.pending.push(work);
    if (this.pending.length >= JOURNAL_WRITE_BATCH) {
      this.cancel();
      this.timer = setTimeout(this.flush, 0);
    } else {
      this.timer ??= setTimeout(this.flush, JOURNAL_WRITE_DELAY_MS);
    }
    // The run's end drains the queue: the timer alone never keeps the host alive.
    this.timer.unref();
  }

  /** Runs every pending write on `target`, in order, through `inTransaction`; the queue is empty after. */
  drain(target: T, inTransaction: (writes: () => void) => void): void {
    this.cancel();
    if (this.pending.length === 0) return;
    const writes = this.pending;
    this.pending = [];
    inTransaction(() => {
      for (const work of writes) work(target);
    });
  }

  /** Drops every pending write (the journal is disabled). */
  discard(): void {
    this.cancel();
    this.pending = [];
  }

  private cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
