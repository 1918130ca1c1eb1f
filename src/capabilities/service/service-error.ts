// How a capability's provider call fails (SPEC §10): the one error the service layer throws, and
// the wording of each failure. Messages name the capability, the route, the cause and the fix;
// they never hold a key, an Authorization header or the provider's error body (SPEC §9) — only
// the HTTP status and a provider error code when it is a plain identifier.

import type { Route } from "../../config/index.js";
import { displayBase, hostPort } from "../../model/errors.js";

export type ServiceErrorKind =
  /** Nothing useful came back; the step failed (the model may change the plan). */
  | "failed"
  /** The request may have reached the provider, which may be doing (and billing) the work. */
  | "uncertain"
  | "cancelled"
  | "timeout"
  /** `--replay` found no recorded answer. */
  | "replay_miss";

export class ServiceError extends Error {
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

/** What one attempt at one route ran into (transport.ts classifies). */
export type AttemptFailure =
  | { kind: "status"; status: number; retryAfterMs: number | null; code: string | null }
  /** `sent`: false when the connection never carried the request (refused, host unknown). */
  | { kind: "network"; reason: string; sent: boolean }
  | { kind: "aborted" }
  | { kind: "malformed"; detail: string };

export class AttemptError extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(`attempt failed: ${failure.kind}`);
    this.name = "AttemptError";
  }
}

const label = (f: { status: number; code: string | null }) => (f.code ? `HTTP ${f.status}, code ${f.code}` : `HTTP ${f.status}`);

export function statusFailure(capability: string, route: Route, failure: { status: number; code: string | null }, endpoint: string): ServiceError {
  const at = `${capability} route ${route.id}`;
  const why = label(failure);
  switch (failure.status) {
    case 401:
      return new ServiceError(
        "failed",
        route.apiKey === null
          ? `the provider requires an API key (${why}) for ${at} and none is configured; set api_key_env in [capabilities.${capability}]`
          : `the provider rejected the API key (${why}) for ${at}; check ${route.apiKeyEnv ?? "the key named by api_key_env"}`,
      );
    case 403:
      return new ServiceError("failed", `the provider refused access (${why}) for ${at}; the key may lack access to model "${route.model}"`);
    case 404:
      return new ServiceError(
        "failed",
        `the provider has no model "${route.model}" or no ${endpoint} endpoint at ${displayBase(route.apiBase)} (${why}) for ${at}; check the model and that api_base is the API root (usually ending in /v1)`,
      );
    case 413:
      return new ServiceError("failed", `the provider refused the request as too large (${why}) for ${at}; send smaller inputs`);
    default:
      return new ServiceError("failed", `the provider rejected the request (${why}) for ${at}; check the step's params against what model "${route.model}" supports`);
  }
}

export function uncertainFailure(capability: string, route: Route, what: string): ServiceError {
  return new ServiceError(
    "uncertain",
    `${what} for ${capability} route ${route.id} after the request was sent, so the provider may have done the work; it is not sent again automatically — check the provider, then run the step again if you want it`,
  );
}

export function networkFailure(capability: string, route: Route, reason: string): ServiceError {
  return new ServiceError(
    "failed",
    `cannot reach the ${capability} server at ${hostPort(route.apiBase)} for route ${route.id} (${reason}); check that it is running and that api_base is right`,
  );
}

export function serverFailure(capability: string, route: Route, what: string, retries: number): ServiceError {
  return new ServiceError("failed", `the provider failed (${what}) for ${capability} route ${route.id} through ${retries} retries; try again later or list another route`);
}

export function malformedFailure(capability: string, route: Route, detail: string): ServiceError {
  return new ServiceError(
    "failed",
    `the answer from ${displayBase(route.apiBase)} for ${capability} route ${route.id} is not usable (${detail}); check that api_base points to an OpenAI-compatible API`,
  );
}

export function timeoutFailure(capability: string, route: Route): ServiceError {
  return new ServiceError("timeout", `the ${capability} request for route ${route.id} did not finish before the invocation deadline; raise timeout in aiython.toml or send less`);
}

export function statusLabel(failure: AttemptFailure): string {
  switch (failure.kind) {
    case "status":
      return label(failure);
    case "network":
      return failure.reason;
    case "aborted":
      return "the deadline";
    case "malformed":
      return failure.detail;
  }
}
