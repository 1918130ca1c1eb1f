// The run's phases for --stats and the journal (SPEC §11): total since the process started,
// parse (the frontend planning a source for the bridge: one CPython cannot compile, or any
// source of the program or its project modules when a model is configured), prepare (everything before the
// program runs, parse excluded) and execution (the program with its AI invocations, parse
// excluded: a source is planned after the interpreter is up). Tiny and import-free so that every
// run can keep one without paying for the rest of the observers; it reads process.uptime(), not
// the global `performance`, whose first use loads Node's perf_hooks (SPEC §12 start-up budget).

export interface RunTimings {
  totalSeconds: number;
  parseSeconds: number;
  prepareSeconds: number;
  executionSeconds: number;
}

/** Milliseconds since the process started. */
const now = (): number => process.uptime() * 1000;

export class RunClock {
  private readonly parses: { from: number; to: number }[] = [];
  private startedAt: number | null = null;
  private endedAt: number | null = null;

  /** Starts timing one parse (there may be several: imported modules); call the result when done. */
  parsing(): () => void {
    const from = now();
    return () => void this.parses.push({ from, to: now() });
  }

  programStarted(): void {
    this.startedAt ??= now();
  }

  programEnded(): void {
    this.endedAt ??= now();
  }

  timings(): RunTimings {
    // now() counts from the start of the process, so `total` includes Node's start-up.
    const at = now();
    const started = this.startedAt ?? at;
    const ended = this.endedAt ?? at;
    const within = (from: number, to: number) => this.parses.reduce((sum, p) => sum + Math.max(0, Math.min(p.to, to) - Math.max(p.from, from)), 0);
    return {
      totalSeconds: at / 1000,
      parseSeconds: this.parses.reduce((sum, p) => sum + (p.to - p.from), 0) / 1000,
      prepareSeconds: Math.max(0, started - within(0, started)) / 1000,
      executionSeconds: Math.max(0, ended - started - within(started, ended)) / 1000,
    };
  }
}
