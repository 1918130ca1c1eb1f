// When to try a model request again and how long to wait first (SPEC §5.4): exponential backoff
// with jitter, a server's Retry-After / retry-after-ms taking precedence, and never a wait that
// would start the next request at or after the invocation deadline. Pure functions; the client
// does the waiting.

import { MODEL_CLIENT_DEFAULTS } from "../defaults.js";

/** Minimal view of response headers: the fetch `Headers` class satisfies it. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * How long the server asked us to wait, in ms, or null when it did not say (or said nonsense).
 * `retry-after-ms` (OpenAI's extension) wins over `Retry-After`, which is either delta-seconds
 * (fractions tolerated) or an HTTP date (RFC 9110 §10.2.3) measured against `now`.
 */
export function parseRetryAfter(headers: HeaderSource | undefined | null, now: number): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const raw = headers.get("retry-after");
  if (raw === null || raw.trim() === "") return null;
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // An HTTP date always names its day and month; Date.parse alone would take "-5" as a year.
  if (!/[A-Za-z]/.test(text)) return null;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/** Backoff before retry number `retry` (0 for the first retry), jittered downwards. */
export function backoffDelay(retry: number, random: () => number): number {
  const { backoffBaseMs, backoffMaxMs, backoffJitterFloor } = MODEL_CLIENT_DEFAULTS;
  const full = Math.min(backoffMaxMs, backoffBaseMs * 2 ** retry);
  return Math.round(full * (backoffJitterFloor + (1 - backoffJitterFloor) * random()));
}

export type RetryDecision =
  | { kind: "retry"; waitMs: number; fromServer: boolean }
  | { kind: "give_up"; reason: "retries_exhausted" }
  | { kind: "give_up"; reason: "deadline"; waitMs: number; fromServer: boolean };

export interface RetryInput {
  /** Retries already made on this route. */
  retriesDone: number;
  maxRetries: number;
  /** What the server asked for, from parseRetryAfter. */
  retryAfterMs: number | null;
  now: number;
  deadline: number;
  random: () => number;
}

export function planRetry(input: RetryInput): RetryDecision {
  if (input.retriesDone >= input.maxRetries) return { kind: "give_up", reason: "retries_exhausted" };
  const fromServer = input.retryAfterMs !== null;
  const waitMs = fromServer ? (input.retryAfterMs as number) : backoffDelay(input.retriesDone, input.random);
  // The next request would start at now + waitMs; one that starts at the deadline has no time.
  if (input.now + waitMs >= input.deadline) return { kind: "give_up", reason: "deadline", waitMs, fromServer };
  return { kind: "retry", waitMs, fromServer };
}
