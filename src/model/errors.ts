// The one error the model client throws, and the wording of every failure it reports. Messages
// name the route, the cause and the fix; they never contain the API key, the Authorization
// header or the provider's raw error body (SPEC §5.4, §9) — only the HTTP status and, when it is
// a plain identifier such as "model_not_found", the provider's error code.

import { ModelCallError } from "../model-port.js";
import type { ChatRoute } from "./types.js";

export { ModelCallError };

/** The base URL without credentials, query or fragment, for messages. */
export function displayBase(apiBase: string): string {
  try {
    const url = new URL(apiBase);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, "")}`;
  } catch {
    return "(unparsable api_base)";
  }
}

/** hostPort's answers by base URL: every request's report names its server (a run has few). */
const hostPorts = new Map<string, string>();

/** "host:port" of the base URL, default ports made explicit. */
export function hostPort(apiBase: string): string {
  let found = hostPorts.get(apiBase);
  if (found === undefined) {
    found = parseHostPort(apiBase);
    if (hostPorts.size < 64) hostPorts.set(apiBase, found);
  }
  return found;
}

function parseHostPort(apiBase: string): string {
  try {
    const url = new URL(apiBase);
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    return `${url.hostname}:${port}`;
  } catch {
    return "(unparsable api_base)";
  }
}

/** A provider error code is shown only when it is a short snake_case identifier, never free text. */
export function safeProviderCode(code: unknown): string | null {
  return typeof code === "string" && /^[a-z][a-z_]{0,39}$/.test(code) ? code : null;
}

function statusLabel(status: number, code: string | null): string {
  return code ? `HTTP ${status}, code ${code}` : `HTTP ${status}`;
}

function keyHint(route: ChatRoute): string {
  return route.apiKeyEnv ? `check ${route.apiKeyEnv}` : "check the key named by api_key_env in aiython.toml";
}

/** 401/403/404 and other 4xx answers: fail at once. */
export function statusError(route: ChatRoute, status: number, code: string | null): ModelCallError {
  const label = statusLabel(status, code);
  if (status === 401) {
    if (route.apiKey === null) {
      return new ModelCallError(
        "auth",
        `the provider requires an API key (${label}) for route ${route.id} and none is configured; set api_key_env in aiython.toml to the environment variable that holds it`,
      );
    }
    return new ModelCallError("auth", `the provider rejected the API key (${label}) for route ${route.id}; ${keyHint(route)}`);
  }
  if (status === 403) {
    return new ModelCallError(
      "permission",
      `the provider refused access (${label}) for route ${route.id}; the key may lack access to model ` +
        `"${route.model}" or the account may not be allowed to use it; ${keyHint(route)}`,
    );
  }
  if (status === 404) {
    return new ModelCallError(
      "not_found",
      `the provider found no model "${route.model}" or no chat completions endpoint at ${displayBase(route.apiBase)} ` +
        `(${label}) for route ${route.id}; check the model name and that api_base is the API root (usually ending in /v1)`,
    );
  }
  return new ModelCallError(
    "malformed",
    `the provider rejected the request (${label}) for route ${route.id}; the model may not support function tools — pick a model with tool calling`,
  );
}

export function rateLimitedError(route: ChatRoute, detail: { retries: number; waitMs?: number }): ModelCallError {
  const why =
    detail.waitMs !== undefined
      ? `the provider asked to wait ${Math.ceil(detail.waitMs / 1000)} s (HTTP 429), past the invocation deadline`
      : `the provider kept answering HTTP 429 (rate limited) through ${detail.retries} retries`;
  return new ModelCallError("rate_limited", `${why} for route ${route.id}; wait and run again, raise timeout, or list a fallback route in model`);
}

/** `what` is the last failure's label, e.g. "HTTP 503" or "an error event in the stream". */
export function serverError(route: ChatRoute, what: string | null, retries: number): ModelCallError {
  return new ModelCallError("server", `the provider failed (${what ?? "server error"}) for route ${route.id} through ${retries} retries; try again later or use another route`);
}

/** The deadline came (or the next attempt could only start after it); `last` says what was going on. */
export function timeoutError(route: ChatRoute, last: string | null): ModelCallError {
  const cause = last ? ` (last answer: ${last})` : "";
  return new ModelCallError(
    "timeout",
    `the model request for route ${route.id} did not finish before the invocation deadline${cause}; raise timeout in aiython.toml or use a faster model`,
  );
}

export function networkError(route: ChatRoute, reason: string): ModelCallError {
  return new ModelCallError(
    "network",
    `cannot reach the model server at ${hostPort(route.apiBase)} for route ${route.id} (${reason}); check that the server is running and that api_base is right`,
  );
}

export function malformedError(route: ChatRoute, detail: string): ModelCallError {
  return new ModelCallError(
    "malformed",
    `the answer from ${displayBase(route.apiBase)} for route ${route.id} is not a usable chat completion (${detail}); check that api_base points to an OpenAI-compatible API`,
  );
}

export function tooLargeError(route: ChatRoute, limitBytes: number): ModelCallError {
  const mb = Math.round((limitBytes / (1024 * 1024)) * 100) / 100;
  return new ModelCallError(
    "malformed",
    `the answer from ${displayBase(route.apiBase)} for route ${route.id} was larger than ${mb} MB and was not read (max_response_mb = ${mb}); ` +
      "raise max_response_mb in aiython.toml if the model's answers are meant to be that large",
  );
}

export function cancelledError(route: ChatRoute): ModelCallError {
  return new ModelCallError("cancelled", `the model request for route ${route.id} was cancelled`);
}
