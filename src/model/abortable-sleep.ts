// The one wait of the model services: `ms` milliseconds, or less when `signal` aborts first (the
// caller checks the signal after). Retries, job polls and rate-limit backoff all wait with it.

import type { StopSignal } from "../stop-signal.js";
/** Resolves after `ms`, or at once when `signal` aborts. */
export function abortableSleep(ms: number, signal?: StopSignal): Promise<void> {
  return new Promise((resolve) => {
    // setTimeout fires at once beyond 2^31-1 ms; waking early only means retrying early.
    const timer = setTimeout(done, Math.min(ms, 2 ** 31 - 1));
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
