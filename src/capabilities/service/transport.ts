// The two ways a capability reaches its provider (SPEC §10): the openai client where it has the
// endpoint (embeddings, audio, images, chat with image parts) and plain fetch where it has not
// (rerank, video jobs). Both make exactly one attempt, bounded by the time left and the caller's
// signal, and turn whatever goes wrong into an AttemptError (service-error.ts); retries are
// call-service.ts's. The key goes only into the Authorization header; nothing here logs.
// Each attempt gets its own AbortController tied to the caller's signal: the openai client leaves
// its abort listener on the signal it is given, so a plan of a dozen steps sharing the
// invocation's signal made Node print MaxListenersExceededWarning on the program's stderr.

import type { Route } from "../../config/index.js";
import { MODEL_CLIENT_DEFAULTS } from "../../defaults.js";
import { classifyFailure, classifyNetwork } from "../../model/classify-failure.js";
import { safeProviderCode } from "../../model/errors.js";
import { clientOptions, loadOpenAI, type OpenAIModuleType } from "../../model/load-openai.js";
import { parseRetryAfter, type HeaderSource } from "../../model/retry.js";
import { AttemptError, type AttemptFailure } from "./service-error.js";

export interface AttemptEnv {
  signal: AbortSignal;
  /** ms left before the deadline. */
  remainingMs: number;
}

export type OpenAIClient = InstanceType<OpenAIModuleType["OpenAI"]>;

/** Reasons classifyNetwork gives when the connection never carried a request. */
const NOT_SENT = /refused|not found|lookup failed|unreachable/;

function networkFailure(err: unknown): AttemptFailure {
  const { reason } = classifyNetwork(err);
  return { kind: "network", reason, sent: !NOT_SENT.test(reason) };
}

/** One call through the openai client for `route`; `run` gets the client and the request options. */
export async function viaOpenAI<T>(route: Route, env: AttemptEnv, run: (client: OpenAIClient, options: object, mod: OpenAIModuleType) => Promise<T>): Promise<T> {
  const mod = await loadOpenAI();
  const client = new mod.OpenAI(clientOptions(route.apiKey ?? MODEL_CLIENT_DEFAULTS.placeholderApiKey, route.apiBase));
  const timeout = Math.max(1, Math.min(env.remainingMs, 2 ** 31 - 1));
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (env.signal.aborted) controller.abort();
  else env.signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await run(client, { signal: controller.signal, timeout, maxRetries: 0 }, mod);
  } catch (err) {
    if (err instanceof AttemptError) throw err;
    if (env.signal.aborted) throw new AttemptError({ kind: "aborted" });
    const failure = classifyFailure(err, mod);
    if (failure === null) throw err;
    switch (failure.kind) {
      case "status":
        throw new AttemptError({ kind: "status", status: failure.status, retryAfterMs: parseRetryAfter(failure.headers, Date.now()), code: failure.code });
      case "stream_error":
        throw new AttemptError({ kind: "network", reason: "the provider ended the answer early", sent: true });
      case "network":
        throw new AttemptError(networkFailure(err));
      case "too_large": // only the chat client's transport caps answers (max_response_mb)
        throw new AttemptError({ kind: "malformed", detail: "the answer is too large" });
      default:
        throw new AttemptError(failure);
    }
  } finally {
    env.signal.removeEventListener("abort", onAbort);
  }
}

/** One plain fetch under `route.apiBase`; a non-2xx answer is an AttemptError (its body is never read). */
export async function viaFetch(route: Route, env: AttemptEnv, relative: string, init: RequestInit): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(1, Math.min(env.remainingMs, 2 ** 31 - 1)));
  const onAbort = () => controller.abort();
  env.signal.addEventListener("abort", onAbort, { once: true });
  const headers = new Headers(init.headers);
  if (route.apiKey) headers.set("authorization", `Bearer ${route.apiKey}`);
  try {
    const response = await fetch(`${route.apiBase.replace(/\/+$/, "")}/${relative}`, { ...init, headers, signal: controller.signal });
    if (!response.ok) {
      const code = await errorCode(response);
      throw new AttemptError({ kind: "status", status: response.status, retryAfterMs: parseRetryAfter(response.headers as HeaderSource, Date.now()), code });
    }
    return response;
  } catch (err) {
    if (err instanceof AttemptError) throw err;
    if (controller.signal.aborted) throw new AttemptError({ kind: "aborted" });
    throw new AttemptError(networkFailure(err));
  } finally {
    clearTimeout(timer);
    env.signal.removeEventListener("abort", onAbort);
  }
}

/** The provider's error code, when its body says one that is a plain identifier; the rest is dropped unread. */
async function errorCode(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown } };
    return safeProviderCode(body?.error?.code);
  } catch {
    return null;
  }
}

/** A JSON body that must be an object; anything else is a malformed answer. */
export async function jsonObject(response: Response): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new AttemptError({ kind: "malformed", detail: "the body is not valid JSON" });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new AttemptError({ kind: "malformed", detail: "the body is not a JSON object" });
  return body as Record<string, unknown>;
}

export function malformed(detail: string): AttemptError {
  return new AttemptError({ kind: "malformed", detail });
}
