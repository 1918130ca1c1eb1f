// The model client: the only user of the openai package and of model HTTP (STYLE habit 5). It
// implements the orchestrator's ModelPort structurally. Per route it retries 429, 5xx and
// dropped connections with backoff inside the invocation deadline, honouring Retry-After; a 429
// that outlasts its retries (or asks to wait past the deadline) falls through to the next route;
// 401/403/404 and other 4xx fail at once (SPEC §5.4). Every failure is a ModelCallError whose
// message names the route, the cause and the fix and carries no secret or provider body (§9).
// A non-streaming request is one POST through a keep-alive transport (post-attempt.ts), which
// reads answers and failures as the openai client would; a streaming one goes through the openai
// client, one per route for the life of the model client, over the same transport
// (http-transport.ts): a block pays for neither a client nor a connection, and a run whose routes
// do not stream never loads openai.

import { assertNever, InternalError } from "../errors.js";
import { beginAttempt, type AttemptCounter } from "./attempt-report.js";
import type { AttemptFailure } from "./classify-failure.js";
import { cancelledError, malformedError, ModelCallError, networkError, rateLimitedError, serverError, statusError, timeoutError, tooLargeError } from "./errors.js";
import { loadOpenAI, type OpenAIModuleType } from "./load-openai.js";
import { MODEL_CLIENT_DEFAULTS } from "../defaults.js";
import { abortableSleep } from "./abortable-sleep.js";
import { parseRetryAfter, planRetry } from "./retry.js";
import { keepAliveTransport, loadHttps, type Post } from "./http-transport.js";
import { completionsUrl, postAttempt } from "./post-attempt.js";
import { rehearse, rehearsePost } from "./rehearsal.js";
import { makeRouteClient, runAttempt, type AttemptInput, type AttemptResult, type RouteClient } from "./run-attempt.js";
import { hintError, rememberAutoToolChoice, toolCallsFromContent, toolChoiceFor } from "./server-quirks.js";
import type { ModelCallOptions, ModelPort, ModelRequest, ModelResponse } from "../model-port.js";
import type { ChatRoute, ModelClientOptions, SleepFn } from "./types.js";
import type { StopSignal } from "../stop-signal.js";

export interface ModelClient extends ModelPort {
  /** Loads what the routes need (TLS; for streaming ones the openai package, their clients and a rehearsed request), so the first call does not wait. */
  preload(): Promise<void>;
}

export const defaultSleep: SleepFn = abortableSleep;

/** What an attempt needs beyond how it is sent. */
type AttemptParts = Pick<AttemptInput, "route" | "request" | "toolChoice" | "remainingMs" | "signal">;

/** How one route ended: an answer, or a 429 that lets the next route try. Other failures throw. */
type RouteOutcome = { kind: "answer"; response: Omit<ModelResponse, "providerSeconds"> } | { kind: "rate_limited"; error: ModelCallError };

export function createModelClient(routes: ChatRoute[], opts: ModelClientOptions = {}): ModelClient {
  if (routes.length === 0) throw new InternalError("createModelClient needs at least one route");
  return new RoutedClient(routes, opts);
}

/** The routes in order, each tried with its own retries; see the header. */
class RoutedClient implements ModelClient {
  private readonly now: () => number;
  private readonly sleep: SleepFn;
  private readonly random: () => number;
  private readonly fetch: typeof fetch;
  private readonly post: Post;
  /** Whether any route streams: only then is the openai package loaded. */
  private readonly streams: boolean;
  private readonly urls = new Map<ChatRoute, URL>();
  private readonly maxRetries: number;
  private readonly clients = new Map<ChatRoute, RouteClient>();

  constructor(
    private readonly routes: ChatRoute[],
    private readonly opts: ModelClientOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? defaultSleep;
    this.random = opts.random ?? Math.random;
    const transport = keepAliveTransport({ maxBodyBytes: opts.maxResponseBytes });
    this.fetch = opts.fetch ?? transport.fetch;
    this.post = transport.post;
    this.streams = routes.some((route) => this.streamsOn(route));
    this.maxRetries = opts.maxRetries ?? MODEL_CLIENT_DEFAULTS.maxRetries;
  }

  async preload(): Promise<void> {
    if (this.routes.some((route) => /^https:/i.test(route.apiBase))) await loadHttps();
    if (this.routes.some((route) => !this.streamsOn(route))) await rehearsePost();
    if (!this.streams) return;
    const mod = await loadOpenAI();
    for (const route of this.routes) if (this.streamsOn(route)) this.clientFor(mod, route);
    await rehearse(mod);
  }

  private streamsOn(route: ChatRoute): boolean {
    return route.stream ?? this.opts.stream ?? MODEL_CLIENT_DEFAULTS.stream;
  }

  private clientFor(mod: OpenAIModuleType, route: ChatRoute): RouteClient {
    let routeClient = this.clients.get(route);
    if (!routeClient) this.clients.set(route, (routeClient = makeRouteClient(mod, route, this.fetch)));
    return routeClient;
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    const mod = this.streams ? await loadOpenAI() : null;
    // Timed after the one-off package import, which is not the provider's time.
    const started = this.now();
    const limited: ModelCallError[] = [];
    const counter: AttemptCounter = { sent: 0 };
    for (const [index, route] of this.routes.entries()) {
      const outcome = await this.tryRoute(mod, route, index === this.routes.length - 1, request, options, counter);
      // Object.assign, not a spread: docs/architecture.md, "Memory per block".
      if (outcome.kind === "answer") return Object.assign({}, outcome.response, { providerSeconds: (this.now() - started) / 1000 });
      limited.push(outcome.error);
    }
    if (limited.length === 1) throw limited[0];
    throw new ModelCallError(
      "rate_limited",
      `every route was rate limited (HTTP 429): ${this.routes.map((r) => r.id).join(", ")}; wait and run again, raise timeout, or add another route to model`,
    );
  }

  /** Waits `ms` unless the caller cancels first. */
  private async pause(ms: number, route: ChatRoute, signal?: StopSignal): Promise<void> {
    if (signal?.aborted) throw cancelledError(route);
    await this.sleep(ms, signal);
    if (signal?.aborted) throw cancelledError(route);
  }

  private async tryRoute(
    mod: OpenAIModuleType | null,
    route: ChatRoute,
    isLast: boolean,
    request: ModelRequest,
    options: ModelCallOptions,
    counter: AttemptCounter,
  ): Promise<RouteOutcome> {
    const send = this.sender(mod, route);
    let retries = 0;
    /** What the last failed attempt was, for the timeout message ("HTTP 503"). */
    let last: string | null = null;
    for (;;) {
      if (options.signal?.aborted) throw cancelledError(route);
      const remainingMs = options.deadline - this.now();
      if (remainingMs <= 0) throw timeoutError(route, last);
      const toolChoice = toolChoiceFor(route);
      // The route's rate limit is shared by the whole run (SPEC §8): wait for its turn first.
      const settle = await this.opts.gate?.admit(route, () => estimateTokens(request), options);
      // Every request is reported to the caller (SPEC §11) and may be refused before it is sent (§13).
      const ended = beginAttempt(options.attempts, route, counter, this.now);
      const result = await send({ route, request, toolChoice, remainingMs: options.deadline - this.now(), signal: options.signal });
      ended(result);
      if (result.ok) {
        const { usage } = result.answer;
        settle?.(usage?.total_tokens);
        const message = withContentCalls(result.answer.message, request);
        // Two literals, not a conditional spread: docs/architecture.md, "Memory per block".
        const { requestBytes } = result;
        return { kind: "answer", response: usage ? { message, usage, requestBytes, route: route.id } : { message, requestBytes, route: route.id } };
      }
      if (toolChoice === "required" && result.failure.kind === "status" && result.failure.hint === "tool_choice_rejected") {
        rememberAutoToolChoice(route); // asked again at once, with "auto": not a retry (SPEC §5)
        continue;
      }
      const retryable = retryableFailure(route, result.failure, options.signal, last);
      if (retryable instanceof ModelCallError) throw retryable;
      last = retryable.label;
      const next = this.afterFailure(route, result.failure, { retries, isLast, last, deadline: options.deadline });
      // A 429 holds back the whole run's requests to this route, not only this one (SPEC §8).
      if (result.failure.kind === "status" && result.failure.status === 429) {
        this.opts.gate?.backoff(route, next.kind === "retry" ? next.waitMs : (parseRetryAfter(result.failure.headers, this.now()) ?? 0));
      }
      if (next.kind !== "retry") return next.outcome;
      await this.pause(next.waitMs, route, options.signal);
      retries += 1;
    }
  }

  /** How this route's requests are sent: the openai client when it streams, else one POST. */
  private sender(mod: OpenAIModuleType | null, route: ChatRoute): (input: AttemptParts) => Promise<AttemptResult> {
    if (mod && this.streamsOn(route)) {
      const routeClient = this.clientFor(mod, route);
      return (input) => runAttempt(Object.assign({}, input, { mod, routeClient, stream: true as const }));
    }
    let url = this.urls.get(route);
    if (!url) this.urls.set(route, (url = completionsUrl(route.apiBase)));
    const target = url;
    // Object.assign, not a spread: docs/architecture.md, "Memory per block".
    return (input) => postAttempt(Object.assign({}, input, { post: this.post, url: target }));
  }

  /** After a retryable failure: wait and retry, give the next route its turn (429), or throw. */
  private afterFailure(
    route: ChatRoute,
    failure: AttemptFailure,
    at: { retries: number; isLast: boolean; last: string | null; deadline: number },
  ): { kind: "retry"; waitMs: number } | { kind: "next"; outcome: RouteOutcome } {
    const isRateLimit = failure.kind === "status" && failure.status === 429;
    const allowed = isRateLimit && !at.isLast ? Math.min(this.maxRetries, MODEL_CLIENT_DEFAULTS.rateLimitRetriesBeforeFallback) : this.maxRetries;
    const retryAfterMs = failure.kind === "status" ? parseRetryAfter(failure.headers, this.now()) : null;
    const decision = planRetry({ retriesDone: at.retries, maxRetries: allowed, retryAfterMs, now: this.now(), deadline: at.deadline, random: this.random });
    if (decision.kind === "retry") return { kind: "retry", waitMs: decision.waitMs };
    if (isRateLimit) {
      const waitMs = decision.reason === "deadline" && decision.fromServer ? decision.waitMs : undefined;
      return { kind: "next", outcome: { kind: "rate_limited", error: rateLimitedError(route, { retries: at.retries, waitMs }) } };
    }
    if (decision.reason === "deadline") throw timeoutError(route, at.last);
    if (failure.kind === "network") throw networkError(route, failure.reason);
    throw serverError(route, at.last, at.retries);
  }
}

/** A reply without tool calls whose content is a tool call written as JSON is read as that call (SPEC §5). */
function withContentCalls(message: ModelResponse["message"], request: ModelRequest): ModelResponse["message"] {
  if (message.tool_calls.length > 0) return message;
  const calls = toolCallsFromContent(message.content, request.tools);
  return calls ? { content: null, tool_calls: calls } : message;
}

/** Tokens a request will use, for a route's tokens_per_minute before the answer says (4 bytes a token). */
function estimateTokens(request: ModelRequest): number {
  return Math.ceil(JSON.stringify(request.messages).length / 4) + Math.ceil(JSON.stringify(request.tools).length / 4);
}

/**
 * A failure that may be retried gets a short label for later messages; any other failure is
 * turned into the error to throw right away.
 */
function retryableFailure(route: ChatRoute, failure: AttemptFailure, signal: StopSignal | undefined, last: string | null): { label: string } | ModelCallError {
  const known = failure.kind === "status" ? hintError(route, failure.status, failure.hint) : null;
  if (known) return known;
  switch (failure.kind) {
    case "aborted":
      return signal?.aborted ? cancelledError(route) : timeoutError(route, last);
    case "malformed":
      return malformedError(route, failure.detail);
    case "too_large":
      return tooLargeError(route, failure.limitBytes);
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
