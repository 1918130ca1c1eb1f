// The invocation's deadline and cancellation (SPEC §5.4): every model call and frame op is raced
// against the absolute deadline and the caller's abort signal. Whichever comes first aborts
// `signal`, which the model port is given, so an HTTP request in flight stops too. One timer
// serves the whole invocation (set at its first race, cleared by `dispose`), and one promise
// says when it stopped: a block's races add no timer or listener of their own.

import type { InvocationEnd } from "../invocation-record.js";
import { Stopper, type StopSignal } from "../stop-signal.js";

export type StopReason = "timeout" | "cancelled";
export type Stopped = { stopped: StopReason };

/** setTimeout fires at once for delays beyond this. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Deadline {
  private readonly stopper = new Stopper(); // not an AbortController: see stop-signal.ts
  /** An AbortSignal that follows `signal`, for fetch and the like; made when first asked for. */
  private aborter: AbortController | null = null;
  private held = 0;
  private heldSince = 0;
  private readonly onOuterAbort = () => this.stopper.abort();
  private timer: NodeJS.Timeout | undefined;
  /** Resolves once `signal` aborts, with why; made at the first race. */
  private stopped: Promise<Stopped> | null = null;

  constructor(
    /** Absolute, ms since the epoch; moved later by the time it was held. */
    public at: number,
    private readonly outer: StopSignal | undefined,
    private readonly now: () => number,
  ) {
    outer?.addEventListener("abort", this.onOuterAbort, { once: true });
  }

  /** Aborts when the invocation stops waiting (deadline or caller). */
  get signal(): StopSignal {
    return this.stopper.signal;
  }

  /** `signal` as an AbortSignal, for what takes only those (fetch, the openai client: capability tools). */
  get abortSignal(): AbortSignal {
    if (this.aborter === null) {
      const aborter = new AbortController();
      this.aborter = aborter;
      if (this.stopper.signal.aborted) aborter.abort(this.stopper.signal.reason);
      else this.stopper.signal.addEventListener("abort", () => aborter.abort(this.stopper.signal.reason), { once: true });
    }
    return this.aborter.signal;
  }

  /** Milliseconds until the deadline (negative once past). */
  remainingMs(): number {
    return this.at - this.now();
  }

  /** Why waiting stopped: the caller cancelled, else the deadline passed. */
  reason(): StopReason {
    return this.outer?.aborted ? "cancelled" : "timeout";
  }

  /** Runs `work` unless the invocation has stopped; resolves `{stopped}` when it stops first. */
  async race<T>(work: () => Promise<T>): Promise<T | Stopped> {
    if (this.outer?.aborted || this.stopper.signal.aborted || this.now() >= this.at) return { stopped: this.reason() };
    this.stopped ??= new Promise<Stopped>((resolve) => {
      this.stopper.signal.addEventListener("abort", () => resolve({ stopped: this.reason() }), { once: true });
    });
    this.arm();
    return Promise.race([work(), this.stopped]);
  }

  /** The deadline's timer; a deadline beyond the timer's range is reached in steps. */
  private arm(): void {
    if (this.timer !== undefined || this.held > 0) return;
    const left = this.at - this.now();
    const step = left > MAX_TIMER_MS;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        if (step) this.arm();
        else this.stopper.abort();
      },
      step ? MAX_TIMER_MS : left,
    );
  }

  /**
   * Stops the clock until the returned function is called (several holds may overlap): the
   * deadline moves later by the time held. A request waiting in a batch (SPEC §14) holds it.
   */
  hold(): () => void {
    if (this.held++ === 0) {
      this.heldSince = this.now();
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.held > 0) return;
      this.at += this.now() - this.heldSince;
      if (this.stopped !== null && !this.stopper.signal.aborted) this.arm();
    };
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.outer?.removeEventListener("abort", this.onOuterAbort);
  }
}

export function isStopped(value: unknown): value is Stopped {
  return typeof value === "object" && value !== null && "stopped" in value;
}

/** The end a stop means; `tool`: the frame op that was running when the invocation stopped (the bridge interrupts it). */
export function stoppedEnd(stopped: StopReason, timeoutSeconds: number, tool?: string): InvocationEnd {
  if (stopped === "cancelled") return { status: "failed", reason: "cancelled" };
  if (tool !== undefined) {
    return {
      status: "failed",
      reason: `the ${tool} tool did not return within the ${timeoutSeconds} s timeout and was interrupted; raise timeout in aiython.toml or make the instruction simpler`,
    };
  }
  return { status: "failed", reason: `the model did not finish within the ${timeoutSeconds} s timeout; raise timeout in aiython.toml or make the instruction simpler` };
}
