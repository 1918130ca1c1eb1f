// The invocation's deadline and cancellation (SPEC §5.4): every model call and frame op is raced
// against the absolute deadline and the caller's abort signal. Whichever comes first aborts
// `signal`, which the model port is given, so an HTTP request in flight stops too.

export type StopReason = "timeout" | "cancelled";
export type Stopped = { stopped: StopReason };

/** setTimeout fires at once for delays beyond this. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Deadline {
  private readonly stopper = new AbortController();
  private readonly onOuterAbort = () => this.stopper.abort();

  constructor(
    readonly at: number,
    private readonly outer: AbortSignal | undefined,
    private readonly now: () => number,
  ) {
    outer?.addEventListener("abort", this.onOuterAbort, { once: true });
  }

  /** Aborts when the invocation stops waiting (deadline or caller). */
  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  /** Why waiting stopped: the caller cancelled, else the deadline passed. */
  reason(): StopReason {
    return this.outer?.aborted ? "cancelled" : "timeout";
  }

  /** Runs `work` unless the invocation has stopped; resolves `{stopped}` when it stops first. */
  async race<T>(work: () => Promise<T>): Promise<T | Stopped> {
    if (this.outer?.aborted || this.stopper.signal.aborted || this.now() >= this.at) return { stopped: this.reason() };
    let timer: NodeJS.Timeout | undefined;
    let onStop: (() => void) | undefined;
    const stop = new Promise<Stopped>((resolve) => {
      timer = setTimeout(() => {
        resolve({ stopped: this.reason() });
        this.stopper.abort();
      }, Math.min(this.at - this.now(), MAX_TIMER_MS));
      onStop = () => resolve({ stopped: this.reason() });
      this.stopper.signal.addEventListener("abort", onStop, { once: true });
    });
    try {
      return await Promise.race([work(), stop]);
    } finally {
      clearTimeout(timer);
      this.stopper.signal.removeEventListener("abort", onStop!);
    }
  }

  dispose(): void {
    this.outer?.removeEventListener("abort", this.onOuterAbort);
  }
}

export function isStopped(value: unknown): value is Stopped {
  return typeof value === "object" && value !== null && "stopped" in value;
}
