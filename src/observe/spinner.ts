// While a model request is in flight and stderr is a terminal, one line on stderr shows the
// block's file:line and the elapsed seconds (SPEC §2); it is erased before any op reaches the
// frame and when the block resumes (run/invocation-runner.ts).
// Never anything on stdout. Several blocks in flight share the line (the oldest is shown).

import tty from "node:tty";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const INTERVAL_MS = 100;

export class Spinner {
  private readonly active = new Map<number, { label: string; since: number }>();
  private nextId = 0;
  private timer: NodeJS.Timeout | null = null;
  private frame = 0;
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WritableStream = process.stderr,
    private readonly enabled = tty.isatty(2),
  ) {}

  start(label: string): () => void {
    if (!this.enabled) return () => undefined;
    const id = ++this.nextId;
    this.active.set(id, { label, since: Date.now() });
    if (!this.timer) {
      this.timer = setInterval(() => this.draw(), INTERVAL_MS);
      this.timer.unref();
    }
    return () => {
      this.active.delete(id);
      if (this.active.size === 0) this.clear();
    };
  }

  /** Erases the line now, if shown; the next tick draws it again while blocks are in flight. */
  erase(): void {
    if (this.drawn) this.stream.write("\r\x1b[2K");
    this.drawn = false;
  }

  private draw(): void {
    const first = this.active.values().next().value;
    if (!first) return;
    const seconds = ((Date.now() - first.since) / 1000).toFixed(1);
    const more = this.active.size > 1 ? ` (+${this.active.size - 1} more)` : "";
    this.stream.write(`\r\x1b[2K${FRAMES[this.frame++ % FRAMES.length]} aiython: ${first.label} ${seconds}s${more}`);
    this.drawn = true;
  }

  private clear(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.erase();
  }
}
