// `--time-limit SECONDS` / `time_limit` (SPEC §9): the run's wall clock, with the time spent
// waiting for the model (and for the user to answer an `--approve` prompt) left out. Waits hold
// the clock (`hold()` returns its release; several may overlap, across threads); when the
// counted time reaches the limit, `onExpired` runs once. Nothing here ends the program:
// program-run.ts does, as by SIGTERM and then SIGKILL.

/** setTimeout fires at once for delays beyond this. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class TimeLimit {
  private usedMs = 0;
  private runningSince: number | null = null;
  private holds = 0;
  private timer: NodeJS.Timeout | null = null;
  private expired = false;

  constructor(
    readonly seconds: number,
    private readonly onExpired: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts counting (the program has started). */
  start(): void {
    if (this.runningSince === null && this.holds === 0 && !this.expired) this.resume();
  }

  /** Stops the clock until the returned function is called. */
  hold(): () => void {
    this.holds += 1;
    if (this.holds === 1) this.pause();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0 && !this.expired) this.resume();
    };
  }

  /** Counted seconds so far. */
  elapsedSeconds(): number {
    const running = this.runningSince === null ? 0 : this.now() - this.runningSince;
    return (this.usedMs + running) / 1000;
  }

  dispose(): void {
    this.pause();
    this.expired = true;
  }

  private resume(): void {
    this.runningSince = this.now();
    const left = Math.max(0, this.seconds * 1000 - this.usedMs);
    this.timer = setTimeout(() => this.check(), Math.min(left, MAX_TIMER_MS));
    this.timer.unref();
  }

  private pause(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.runningSince !== null) this.usedMs += this.now() - this.runningSince;
    this.runningSince = null;
  }

  private check(): void {
    this.pause();
    if (this.usedMs >= this.seconds * 1000) {
      this.expired = true;
      this.onExpired();
    } else {
      this.resume();
    }
  }
}
