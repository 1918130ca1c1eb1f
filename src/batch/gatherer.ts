// Gathers the requests of one route into a batch (SPEC §14): a batch is handed on when no new
// request has come for `window` milliseconds, or at once when it holds `maxRequests`. Requests come
// from every thread, task and process of the run, since they all pause through this host.

import type { LineResult } from "./batch-lines.js";

/** A model request waiting for its batch. */
export interface Pending {
  customId: string;
  line: string;
  key: string;
  occurrence: number;
  settle(result: LineResult): void;
}

export class Gatherer {
  private waiting: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly windowMs: number,
    private readonly maxRequests: number,
    private readonly handOn: (batch: Pending[]) => void,
  ) {}

  add(pending: Pending): void {
    this.waiting.push(pending);
    if (this.waiting.length >= this.maxRequests) return this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.windowMs);
  }

  /** A request no longer wanted (its block was cancelled) before its batch left: true when it had not. */
  remove(pending: Pending): boolean {
    const at = this.waiting.indexOf(pending);
    if (at === -1) return false;
    this.waiting.splice(at, 1);
    return true;
  }

  get size(): number {
    return this.waiting.length;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private flush(): void {
    this.close();
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length > 0) this.handOn(batch);
  }
}
