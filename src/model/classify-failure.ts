// Turns whatever one request attempt threw (openai client errors, fetch/undici errors and the
// keep-alive transport's, JSON syntax errors, aborts) into a small tagged union the retry loop
// can decide on. Nothing from an error body survives this step except the HTTP status, headers
// and a safe error code.

import type { HeaderSource } from "./retry.js";
import { safeProviderCode } from "./errors.js";
import type { ServerHint } from "./server-quirks.js";
import { ResponseTooLargeError } from "./body-cap.js";

export type AttemptFailure =
  /** `hint`: what the body says about the server (server-quirks.ts); the body itself is gone. */
  | { kind: "status"; status: number; headers: HeaderSource | null; code: string | null; hint?: ServerHint | null }
  /** An `error` event inside a stream that had already started (the provider gave up mid-way). */
  | { kind: "stream_error"; code: string | null }
  | { kind: "network"; reason: string; retryable: boolean }
  /** Our own signal fired: the caller cancelled or the deadline came; the client tells which. */
  | { kind: "aborted" }
  | { kind: "malformed"; detail: string }
  /** The answer's body passed `max_response_mb` and was not read on (http-transport.ts). */
  | { kind: "too_large"; limitBytes: number };

/** The error classes of the dynamically imported openai module that classification needs. */
export interface OpenAIErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

const NETWORK_REASONS: Record<string, { reason: string; retryable: boolean }> = {
  ECONNREFUSED: { reason: "connection refused", retryable: false },
  ENOTFOUND: { reason: "host name not found", retryable: false },
  EAI_AGAIN: { reason: "host name lookup failed", retryable: false },
  EHOSTUNREACH: { reason: "host unreachable", retryable: false },
  ENETUNREACH: { reason: "network unreachable", retryable: false },
  ECONNRESET: { reason: "connection reset", retryable: true },
  EPIPE: { reason: "connection closed while sending", retryable: true },
  UND_ERR_SOCKET: { reason: "connection closed by the server", retryable: true },
  UND_ERR_CONNECT_TIMEOUT: { reason: "connection timed out", retryable: true },
  ETIMEDOUT: { reason: "connection timed out", retryable: true },
};

/** Codes and messages along an error's `cause` chain, outermost first. */
function causeChain(err: unknown): { code?: string; message: string }[] {
  const chain: { code?: string; message: string }[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    chain.push({ code: typeof code === "string" ? code : undefined, message: current.message });
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

export function classifyNetwork(err: unknown): { reason: string; retryable: boolean } {
  const chain = causeChain(err);
  for (const link of chain) {
    if (link.code && NETWORK_REASONS[link.code]) return NETWORK_REASONS[link.code];
  }
  for (const link of chain) {
    if (link.code && /CERT|TLS|SSL/.test(link.code)) return { reason: `TLS certificate problem (${link.code})`, retryable: false };
  }
  // undici reports a connection dropped mid-body as `TypeError: terminated`.
  if (chain.some((link) => /terminated|other side closed|socket hang up/i.test(link.message))) {
    return { reason: "connection closed by the server", retryable: true };
  }
  const code = chain.find((link) => link.code)?.code;
  return { reason: code ? `connection failed (${code})` : "connection failed", retryable: false };
}

function isAbortLike(err: unknown): boolean {
  return err instanceof Error && (err.name === "AbortError" || (err as { code?: unknown }).code === "ABORT_ERR");
}

/** A ResponseTooLargeError anywhere along the cause chain (the openai client wraps what fetch threw). */
function tooLarge(err: unknown): AttemptFailure | null {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current instanceof Error; depth += 1) {
    if (current instanceof ResponseTooLargeError) return { kind: "too_large", limitBytes: current.limitBytes };
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

export function classifyFailure(err: unknown, classes: OpenAIErrorClasses): AttemptFailure | null {
  const large = tooLarge(err);
  if (large) return large;
  if (err instanceof classes.APIUserAbortError || isAbortLike(err)) return { kind: "aborted" };
  // The client's own timer is set to the time left, so its timeout is the deadline too.
  if (err instanceof classes.APIConnectionTimeoutError) return { kind: "aborted" };
  if (err instanceof classes.APIConnectionError) return { kind: "network", ...classifyNetwork(err) };
  if (err instanceof classes.APIError) {
    const apiErr = err as Error & { status?: unknown; headers?: unknown; code?: unknown };
    if (typeof apiErr.status === "number") {
      const headers = apiErr.headers && typeof (apiErr.headers as HeaderSource).get === "function" ? (apiErr.headers as HeaderSource) : null;
      return { kind: "status", status: apiErr.status, headers, code: safeProviderCode(apiErr.code) };
    }
    return { kind: "stream_error", code: safeProviderCode(apiErr.code) };
  }
  if (err instanceof SyntaxError) return { kind: "malformed", detail: "the body is not valid JSON" };
  return classifyTransportError(err);
}

/** What the keep-alive transport (fetch or post) threw: an abort or a failed connection; null for anything else. */
export function classifyTransportError(err: unknown): AttemptFailure | null {
  const large = tooLarge(err);
  if (large) return large;
  if (isAbortLike(err)) return { kind: "aborted" };
  if (err instanceof TypeError && causeChain(err).length > 0 && /fetch failed|terminated/i.test(err.message)) {
    return { kind: "network", ...classifyNetwork(err) };
  }
  return null;
}
