// The model client: the only user of the openai package and of model HTTP (STYLE habit 5). It
// implements the orchestrator's ModelPort structurally. Per route it retries 429, 5xx and
// dropped connections with backoff inside the invocation deadline, honouring Retry-After; a 429
// that outlasts its retries (or asks to wait past the deadline) falls through to the next route;
// 401/403/404 and other 4xx fail at once (SPEC §5.4). Every failure is a ModelCallError whose
// message names the route, the cause and the fix and carries no secret or provider body (§9).

import { assertNever, InternalError } from "../../errors.js";
import type { AttemptFailure } from "./classify-failure.js";
import {
  cancelledError,
  malformedError,
  ModelCallError,
  networkError,
  rateLimitedError,
  serverError,
  statusError,
  timeoutError,
} from "./errors.js";
import { loadOpenAI, type OpenAIModuleType } from "./load-openai.js";
import { MODEL_CLIENT_DEFAULTS } from "./model-defaults.js";
import { parseRetryAfter, planRetry } from "./retry.js";
import { makeRouteClient, runAttempt } from "./run-attempt.js";
import type { ModelCallOptions, ModelPort, ModelRequest, ModelResponse } from "../../model-port.js";
import type { ChatRoute, ModelClientOptions, SleepFn } from "./types.js";

export interface ModelClient extends ModelPort {
  /** Starts loading the openai package now, so the first model call does not wait for it. */
  preload(): Promise<void>;
}

const defaultSleep: SleepFn = (ms, signal) =>
  new Promise((resolve) => {
    // setTimeout fires at once beyond 2^31-1 ms; waking early only means retrying early.
    const timer = setTimeout(done, Math.min(ms, 2 ** 31 - 1));
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

/** How one route ended: an answer, or a 429 that lets the next route try. Other failures throw. */
type RouteOutcome =
  | { kind: "answer"; response: Omit<ModelResponse, "providerSeconds"> }
  | { kind: "rate_limited"; error: ModelCallError };

export function createModelClient(routes: ChatRoute[], opts: ModelClientOptions = {}): ModelClient {
  if (routes.length === 0) throw new InternalError("createModelClient needs at least one route");
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const baseFetch = opts.fetch ?? globalThis.fetch;
  const maxRetries = opts.maxRetries ?? MODEL_CLIENT_DEFAULTS.maxRetries;

  /** Waits `ms` unless the caller cancels first. */
  async function pause(ms: number, route: ChatRoute, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw cancelledError(route);
    await sleep(ms, signal);
    if (signal?.aborted) throw cancelledError(route);
  }

  async function tryRoute(
    mod: OpenAIModuleType,
    route: ChatRoute,
    isLast: boolean,
    request: ModelRequest,
    options: ModelCallOptions,
  ): Promise<RouteOutcome> {
    const { client, sink } = makeRouteClient(mod, route, baseFetch);
    const stream = route.stream ?? opts.stream ?? MODEL_CLIENT_DEFAULTS.stream;
    let retries = 0;
    /** What the last failed attempt was, for the timeout message ("HTTP 503"). */
    let last: string | null = null;
    for (;;) {
      if (options.signal?.aborted) throw cancelledError(route);
      const remainingMs = options.deadline - now();
      if (remainingMs <= 0) throw timeoutError(route, last);
      const result = await runAttempt({ mod, client, sink, route, request, stream, remainingMs, signal: options.signal });
      if (result.ok) {
        const { message, usage } = result.answer;
        return { kind: "answer", response: { message, ...(usage ? { usage } : {}), requestBytes: result.requestBytes, route: route.id } };
      }
      const failure = result.failure;
      const retryable = retryableFailure(route, failure, options.signal, last);
      if (retryable instanceof ModelCallError) throw retryable;
      last = retryable.label;
      const isRateLimit = failure.kind === "status" && failure.status === 429;
      const allowed = isRateLimit && !isLast ? Math.min(maxRetries, MODEL_CLIENT_DEFAULTS.rateLimitRetriesBeforeFallback) : maxRetries;
      const retryAfterMs = failure.kind === "status" ? parseRetryAfter(failure.headers, now()) : null;
      const decision = planRetry({ retriesDone: retries, maxRetries: allowed, retryAfterMs, now: now(), deadline: options.deadline, random });
      if (decision.kind === "retry") {
        await pause(decision.waitMs, route, options.signal);
        retries += 1;
        continue;
      }
      if (isRateLimit) {
        const waitMs = decision.reason === "deadline" && decision.fromServer ? decision.waitMs : undefined;
        return { kind: "rate_limited", error: rateLimitedError(route, { retries, waitMs }) };
      }
      if (decision.reason === "deadline") throw timeoutError(route, last);
      if (failure.kind === "network") throw networkError(route, failure.reason);
      throw serverError(route, last, retries);
    }
  }

  return {
    async preload() {
      await loadOpenAI();
    },

    async complete(request, options) {
      const mod = await loadOpenAI();
      // Timed after the one-off package import, which is not the provider's time.
      const started = now();
      const limited: ModelCallError[] = [];
      for (let index = 0; index < routes.length; index += 1) {
        const outcome = await tryRoute(mod, routes[index], index === routes.length - 1, request, options);
        if (outcome.kind === "answer") return { ...outcome.response, providerSeconds: (now() - started) / 1000 };
        limited.push(outcome.error);
      }
      if (limited.length === 1) throw limited[0];
      throw new ModelCallError(
        "rate_limited",
        `every route was rate limited (HTTP 429): ${routes.map((r) => r.id).join(", ")}; ` +
          `wait and run again, raise timeout, or add another route to model`,
      );
    },
  };
}

/**
 * A failure that may be retried gets a short label for later messages; any other failure is
 * turned into the error to throw right away.
 */
function retryableFailure(
  route: ChatRoute,
  failure: AttemptFailure,
  signal: AbortSignal | undefined,
  last: string | null,
): { label: string } | ModelCallError {
  switch (failure.kind) {
    case "aborted":
      return signal?.aborted ? cancelledError(route) : timeoutError(route, last);
    case "malformed":
      return malformedError(route, failure.detail);
    case "network":
      return failure.retryable ? { label: failure.reason } : networkError(route, failure.reason);
    case "stream_error":
      return { label: failure.code ? `an error event in the stream, code ${failure.code}` : "an error event in the stream" };
    case "status":
      if (failure.status === 429 || failure.status >= 500) return { label: `HTTP ${failure.status}` };
      return statusError(route, failure.status, failure.code);
    default:
      return assertNever(failure, "model attempt failure");
  }
}
