// What a run waiting for its batches shows on stderr (SPEC §14): for the oldest batch in flight,
// its number, status, requests submitted, completed and failed, and the time waited. On a
// terminal one live line, redrawn each second and erased before any answer goes back to the
// program; otherwise one line a minute. Writes go through process.stderr, which the host has made
// a blocking writer of fd 2 before the program started (cli/host-stdio.ts): the program's own
// stderr is never switched to non-blocking mode.

import tty from "node:tty";

const TTY_EVERY_MS = 1000;
const LOG_EVERY_MS = 60_000;

interface Shown {
  number: number;
  total: number;
  status: string;
  completed: number;
  failed: number;
  since: number;
  trouble: string | null;
}

export class BatchProgress {
  private readonly batches = new Map<string, Shown>();
  private timer: NodeJS.Timeout | null = null;
  private drawn = false;

  constructor(
    private readonly write: (text: string) => void = (text) => void process.stderr.write(text),
    private readonly live: boolean = tty.isatty(2),
    private readonly now: () => number = Date.now,
  ) {}

  submitted(id: string, number: number, total: number): void {
    this.batches.set(id, { number, total, status: "validating", completed: 0, failed: 0, since: this.now(), trouble: null });
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.live ? TTY_EVERY_MS : LOG_EVERY_MS);
    this.timer.unref();
  }

  status(id: string, status: string, counts: { total: number; completed: number; failed: number } | null): void {
    const shown = this.batches.get(id);
    if (!shown) return;
    Object.assign(shown, { status, trouble: null }, counts ? { total: counts.total || shown.total, completed: counts.completed, failed: counts.failed } : {});
  }

  /** A poll that failed: shown until the next one answers. */
  trouble(id: string, message: string): void {
    const shown = this.batches.get(id);
    if (shown) shown.trouble = message;
  }

  ended(id: string): void {
    this.batches.delete(id);
    this.erase();
    if (this.batches.size === 0) this.close();
  }

  /** The line as it would be shown now, or null when nothing waits. */
  line(): string | null {
    const first = this.batches.values().next().value;
    if (!first) return null;
    const seconds = Math.round((this.now() - first.since) / 1000);
    const more = this.batches.size > 1 ? ` (+${this.batches.size - 1} more batches)` : "";
    const state = first.trouble ?? first.status;
    return `aiython: batch ${first.number} ${state}: ${first.total} submitted, ${first.completed} completed, ${first.failed} failed, ${seconds} s${more}`;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.erase();
  }

  private tick(): void {
    const line = this.line();
    if (line === null) return;
    if (!this.live) return this.write(`${line}\n`);
    this.write(`\r\x1b[2K${line}`);
    this.drawn = true;
  }

  private erase(): void {
    if (this.drawn) this.write("\r\x1b[2K");
    this.drawn = false;
  }
}
