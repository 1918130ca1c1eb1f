// A stop signal for the host's own waits: what an AbortController gives, for code of this program
// only (no fetch or Node API is handed one). Node's AbortSignal is made by changing an
// EventTarget's prototype and then adding fields, which costs each signal a hidden class of its
// own; V8 keeps those in the old generation until a full collection, so the few signals a block
// made (its pause, each tool call, each HTTP attempt) grew the host's memory with every block
// (SPEC §12; bench/block-memory). A real AbortSignal is still a StopSignal: code that takes a
// StopSignal takes either.

/** The part of AbortSignal the host's waits use. */
export interface StopSignal {
  readonly aborted: boolean;
  /** Why it stopped: what `abort` was given, else an AbortError. */
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

class Signal implements StopSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Set<() => void> | null = null;

  addEventListener(_type: "abort", listener: () => void): void {
    if (this.aborted) return;
    this.listeners ??= new Set();
    this.listeners.add(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    this.listeners?.delete(listener);
  }

  /** Called once, by the stopper. */
  stop(reason: unknown): void {
    this.aborted = true;
    this.reason = reason;
    // A listener removed by one that ran before it is not called, as with an EventTarget.
    for (const listener of this.listeners ?? []) listener();
    this.listeners = null;
  }
}

/** The AbortController of a StopSignal: `abort` stops it once; listeners run once, in the order added. */
export class Stopper {
  private readonly stoppable = new Signal();
  readonly signal: StopSignal = this.stoppable;

  abort(reason: unknown = new DOMException("This operation was aborted", "AbortError")): void {
    if (!this.stoppable.aborted) this.stoppable.stop(reason);
  }
}
