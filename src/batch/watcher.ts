// One submitted batch, watched until it ends (SPEC §14): its status is polled every `poll`
// seconds, and once it is final its output and error files are read, streamed line by line, and
// each request waiting on it gets its line. A request that claims a line after the batch ended (a
// resumed run reaches its blocks one by one) gets it from what was read. A poll that fails is
// said and tried again at the next poll: a batch may take hours, and a network that drops for a
// while loses nothing.

import { BatchApiError, FINAL_STATUSES, type BatchApi } from "./batch-api.js";
import type { LineResult } from "./batch-lines.js";
import { readResultStream } from "./result-stream.js";
import type { BatchProgress } from "./progress.js";

export interface WatchedBatch {
  /** The provider's batch id. */
  providerId: string;
  /** Its row in the journal, or null. */
  row: number | null;
  number: number;
  total: number;
}

export class Watcher {
  private results: Map<string, LineResult> | null = null;
  private finalStatus = "in_progress";
  private readonly waiters = new Map<string, (result: LineResult) => void>();
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly batch: WatchedBatch,
    private readonly api: BatchApi,
    private readonly pollMs: number,
    private readonly progress: BatchProgress,
    private readonly ended: (row: number | null, ok: boolean) => void,
  ) {
    progress.submitted(batch.providerId, batch.number, batch.total);
    this.schedule();
  }

  /** The line of `customId`, now if the batch has ended, else when it does. */
  claim(customId: string, settle: (result: LineResult) => void): void {
    if (this.results) settle(this.lineOf(customId));
    else this.waiters.set(customId, settle);
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.poll(), this.pollMs);
  }

  private async poll(): Promise<void> {
    try {
      const state = await this.api.state(this.batch.providerId);
      this.progress.status(this.batch.providerId, state.status, state.counts);
      if (!FINAL_STATUSES.has(state.status)) return this.schedule();
      const results = new Map<string, LineResult>();
      for (const file of [state.errorFileId, state.outputFileId]) if (file) await readResultStream(this.api.content(file), results);
      this.finish(state.status, results);
    } catch (error) {
      if (error instanceof BatchApiError && error.status === 404) return this.finish("gone", new Map());
      this.progress.trouble(this.batch.providerId, (error as Error).message);
      this.schedule();
    }
  }

  private finish(status: string, results: Map<string, LineResult>): void {
    if (this.stopped) return;
    this.finalStatus = status;
    this.results = results;
    this.progress.ended(this.batch.providerId);
    this.ended(this.batch.row, status === "completed");
    for (const [customId, settle] of this.waiters) settle(this.lineOf(customId));
    this.waiters.clear();
  }

  private lineOf(customId: string): LineResult {
    const result = this.results?.get(customId);
    if (result) return result;
    return {
      ok: false,
      reason:
        this.finalStatus === "completed" ? "the batch's output has no answer for it" : `the batch ${this.finalStatus === "gone" ? "is gone from the server" : this.finalStatus}`,
    };
  }
}
