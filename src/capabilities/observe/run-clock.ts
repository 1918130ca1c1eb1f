// The run's phases for --stats and the journal (SPEC §11): total since the process started,
// parse (the frontend, added by whoever runs it), prepare (everything before the program runs,
// parse excluded) and execution (the program, AI invocations included). Tiny and import-free so
// that every run can keep one without paying for the rest of the observers.

export interface RunTimings {
  totalSeconds: number;
  parseSeconds: number;
  prepareSeconds: number;
  executionSeconds: number;
}

export class RunClock {
  private parseMs = 0;
  private startedAt: number | null = null;
  private endedAt: number | null = null;

  /** Time spent parsing source into a plan; may be called more than once (imports). */
  addParse(seconds: number): void {
    this.parseMs += seconds * 1000;
  }

  programStarted(): void {
    this.startedAt ??= performance.now();
  }

  programEnded(): void {
    this.endedAt ??= performance.now();
  }

  timings(): RunTimings {
    // performance.now() counts from the start of the process, so `total` includes Node's start-up.
    const now = performance.now();
    const started = this.startedAt ?? now;
    const ended = this.endedAt ?? now;
    return {
      totalSeconds: now / 1000,
      parseSeconds: this.parseMs / 1000,
      prepareSeconds: Math.max(0, started - this.parseMs) / 1000,
      executionSeconds: Math.max(0, ended - started) / 1000,
    };
  }
}
