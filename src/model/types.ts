// Inputs of the chat client: the routes it calls and the seams tests replace (fetch, sleep,
// clock, randomness). The request, response and port shapes are the neutral ones of
// src/model-port.ts, which the client implements.

import type { StopSignal } from "../stop-signal.js";
/**
 * One endpoint to try. A list of routes falls through to the next one after a 429 that used up
 * its retries or asked to wait past the deadline (SPEC §5.4, §7 `model` as a list).
 */
export interface ChatRoute {
  /** Shown in messages and returned as `route`, e.g. "openai/gpt-4.1-mini". */
  id: string;
  /** Model name sent to the provider, e.g. "gpt-4.1-mini". */
  model: string;
  /** Base URL of the OpenAI-compatible API, usually ending in /v1. */
  apiBase: string;
  /** The key itself; null for servers that need none (ollama, local servers). Never printed. */
  apiKey: string | null;
  /** Name of the environment variable the key came from, so messages can say what to check. */
  apiKeyEnv?: string | null;
  /** Use the streaming API for this route (overrides the client option). */
  stream?: boolean;
  /** `rate_limit` (SPEC §7): requests and tokens per minute, for the whole run (rate-limiter.ts). */
  rateLimit?: { requestsPerMinute?: number; tokensPerMinute?: number } | null;
}

export type SleepFn = (ms: number, signal?: StopSignal) => Promise<void>;

export interface ModelClientOptions {
  /** The fetch the openai client uses underneath for streaming routes (tests inject one); default a keep-alive transport over node:http. */
  fetch?: typeof fetch;
  /** Waits between retries; default a timer that stops early on abort. */
  sleep?: SleepFn;
  /** Clock for deadlines and Retry-After dates, ms since the epoch; default Date.now. */
  now?: () => number;
  /** Retries per route after the first attempt, for 429, 5xx and dropped connections. */
  maxRetries?: number;
  /** Default for routes that do not say: use the streaming API. */
  stream?: boolean;
  /** Random source for backoff jitter in [0, 1); tests pin it. */
  random?: () => number;
  /** The run's per-route admission (rate_limit, shared 429 backoff); none: every attempt goes at once. */
  gate?: RouteGate;
  /** Bytes of one answer's body (`max_response_mb`); a larger one fails the request. Default none. */
  maxResponseBytes?: number;
}

/** What the model client asks of the limiter around each HTTP attempt (model-client.ts). */
export interface RouteGate {
  /**
   * Waits until `route` may take a request of about `tokens()` tokens (throws past the deadline);
   * the function it resolves with takes the answer's real token count in place of the estimate.
   */
  admit(route: ChatRoute, tokens: () => number, options: { signal?: StopSignal; deadline: number }): Promise<(actual: number | undefined) => void>;
  /** A 429 on `route`: every request to it waits `waitMs` from now. */
  backoff(route: ChatRoute, waitMs: number): void;
}
