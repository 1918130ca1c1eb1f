// In-flight bounds on model requests (SPEC §8): `max_concurrency` of the run's profile holds for
// the whole run — every profile, thread, task and child process together — and a profile that
// sets a lower `max_concurrency` of its own is held to that as well.

import type { ModelPort } from "../model-port.js";

/** A counting gate: at most `max` callers inside at once, the rest served in arrival order. */
export class InFlightLimit {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  async hold<T>(work: () => Promise<T>): Promise<T> {
    while (this.inFlight >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }
}

/** The model port whose requests pass the profile's own gate (when lower) and then the run's. */
export function limitedPort(client: ModelPort, run: InFlightLimit, own: number): ModelPort {
  const profile = own < run.max ? new InFlightLimit(own) : null;
  const send: ModelPort["complete"] = (request, options) => run.hold(() => client.complete(request, options));
  return {
    complete: profile ? (request, options) => profile.hold(() => send(request, options)) : send,
  };
}
