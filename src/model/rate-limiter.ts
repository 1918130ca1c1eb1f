// Per-route request admission for the whole run (SPEC §7 `rate_limit`, §8): one RouteLimiter is
// shared by every model client of the run, so every thread, task and process of the program is
// counted together. A route's `rate_limit` caps requests and (estimated, then actual) tokens in
// any 60-second window; a 429 on a route holds back every request to that route until the wait
// the server asked for (or the client's backoff) has passed, not only the one that got it. When
// the wait would end past the invocation's deadline the request is not sent: a rate_limited
// ModelCallError says which limit and what to change.

import { cancelledError, ModelCallError } from "./errors.js";
import type { ChatRoute, RouteGate, SleepFn } from "./types.js";
import type { StopSignal } from "../stop-signal.js";

const WINDOW_MS = 60_000;

interface RouteState {
  requests: number[];
  tokens: { at: number; count: number }[];
  blockedUntil: number;
}

export class RouteLimiter implements RouteGate {
  private readonly states = new Map<string, RouteState>();

  constructor(
    private readonly sleep: SleepFn,
    private readonly now: () => number = Date.now,
  ) {}

  async admit(route: ChatRoute, tokens: () => number, options: { signal?: StopSignal; deadline: number }): Promise<(actual: number | undefined) => void> {
    const state = this.stateOf(route);
    const estimate = route.rateLimit?.tokensPerMinute ? tokens() : 0;
    for (;;) {
      if (options.signal?.aborted) throw cancelledError(route);
      const now = this.now();
      const { waitMs, why } = this.waitFor(route, state, estimate, now);
      if (waitMs <= 0) {
        // Only a route with a requests-per-minute limit needs its requests' times (never more
        // than the limit within the window): kept for every route, a fast run held a minute of them.
        if (route.rateLimit?.requestsPerMinute) state.requests.push(now);
        if (estimate === 0) return () => undefined;
        const entry = { at: now, count: estimate };
        state.tokens.push(entry);
        return (actual) => {
          if (actual !== undefined) entry.count = actual;
        };
      }
      if (now + waitMs >= options.deadline) {
        throw new ModelCallError(
          "rate_limited",
          `route ${route.id}: ${why} leaves no room before the invocation's timeout; raise rate_limit or timeout in aiython.toml, or add another route to model`,
        );
      }
      await this.sleep(waitMs, options.signal);
    }
  }

  backoff(route: ChatRoute, waitMs: number): void {
    const state = this.stateOf(route);
    state.blockedUntil = Math.max(state.blockedUntil, this.now() + waitMs);
  }

  private waitFor(route: ChatRoute, state: RouteState, estimate: number, now: number): { waitMs: number; why: string } {
    const since = now - WINDOW_MS;
    while (state.requests.length > 0 && state.requests[0] <= since) state.requests.shift();
    while (state.tokens.length > 0 && state.tokens[0].at <= since) state.tokens.shift();
    let waitMs = state.blockedUntil - now;
    let why = "the wait its HTTP 429 asked for";
    const rpm = route.rateLimit?.requestsPerMinute;
    if (rpm && state.requests.length >= rpm) {
      const wait = state.requests[state.requests.length - rpm] + WINDOW_MS - now;
      if (wait > waitMs) [waitMs, why] = [wait, `its rate_limit of ${rpm} requests per minute`];
    }
    const tpm = route.rateLimit?.tokensPerMinute;
    if (tpm && estimate > 0) {
      const wait = tokenWait(state.tokens, estimate, tpm, now);
      if (wait > waitMs) [waitMs, why] = [wait, `its rate_limit of ${tpm} tokens per minute`];
    }
    return { waitMs, why };
  }

  private stateOf(route: ChatRoute): RouteState {
    const key = `${route.apiBase}\u0000${route.model}`;
    let state = this.states.get(key);
    if (!state) {
      state = { requests: [], tokens: [], blockedUntil: 0 };
      this.states.set(key, state);
    }
    return state;
  }
}

/** How long until `estimate` more tokens fit in the window; a first request always fits. */
function tokenWait(window: { at: number; count: number }[], estimate: number, tpm: number, now: number): number {
  let used = window.reduce((sum, t) => sum + t.count, 0);
  if (used === 0 || used + estimate <= tpm) return 0;
  for (const entry of window) {
    used -= entry.count;
    if (used === 0 || used + estimate <= tpm) return entry.at + WINDOW_MS - now;
  }
  return 0;
}
