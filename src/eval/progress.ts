// What `aiython eval` shows on stderr while its runs go: runs done of all, passed, failed and the
// time so far. On a terminal one live line, redrawn at each run's end and each second, and erased
// before the report is printed; otherwise one line a minute (a CI log gets a sign of life, not a
// line per run). Nothing is shown for an eval that ends within its first minute off a terminal.

import tty from "node:tty";

const TTY_EVERY_MS = 1000;
const LOG_EVERY_MS = 60_000;

export class EvalProgress {
  private total = 0;
  private done = 0;
  private passed = 0;
  private started = 0;
  private timer: NodeJS.Timeout | null = null;
  private drawn = false;

  constructor(
    private readonly write: (text: string) => void = (text) => void process.stderr.write(text),
    private readonly live: boolean = tty.isatty(2),
    private readonly now: () => number = Date.now,
  ) {}

  start(total: number): void {
    this.total = total;
    this.started = this.now();
    this.timer = setInterval(() => this.show(), this.live ? TTY_EVERY_MS : LOG_EVERY_MS);
    this.timer.unref();
    if (this.live) this.show();
  }

  finished(passed: boolean): void {
    this.done += 1;
    if (passed) this.passed += 1;
    if (this.live) this.show();
  }

  /** Stops, erasing the live line. */
  end(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.drawn) this.write("\r\x1b[K");
    this.drawn = false;
  }

  line(): string {
    const failed = this.done - this.passed;
    const seconds = Math.round((this.now() - this.started) / 1000);
    return `eval: ${this.done}/${this.total} runs, ${this.passed} passed, ${failed} not passed, ${seconds} s`;
  }

  private show(): void {
    if (this.live) {
      this.write(`\r\x1b[K${this.line()}`);
      this.drawn = true;
    } else {
      this.write(`${this.line()}\n`);
    }
  }
}
