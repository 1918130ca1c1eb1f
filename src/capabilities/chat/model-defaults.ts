// Every behaviour-changing default of the model client, in one place (STYLE habit 6).

export const MODEL_CLIENT_DEFAULTS = {
  /** Retries per route after the first attempt (429, 5xx, dropped connections), SPEC §5.4. */
  maxRetries: 6,
  /**
   * Retries on a 429 before falling through to the next route when one remains (SPEC §5.4): a
   * fallback exists to be used, so a rate-limited route gets a short grace, not the full budget.
   */
  rateLimitRetriesBeforeFallback: 2,
  /** First backoff delay; doubles per retry up to `backoffMaxMs`. */
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  /** Backoff keeps between this fraction and all of the exponential delay (jitter). */
  backoffJitterFloor: 0.5,
  /** Streaming is off unless the route or the client asks for it. */
  stream: false,
  /**
   * Placeholder sent as the bearer token when a route has no key (ollama, local servers): the
   * openai client refuses to start without one, and such servers ignore it.
   */
  placeholderApiKey: "not-needed",
} as const;
