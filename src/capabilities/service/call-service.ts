// One provider call of a capability step, with everything around it (SPEC §10, §11): the key (a
// SHA-256 of the capability, the primary route, its model and the request, assets by content
// hash), `--replay` (answered from the project's store, never the network), the 24 h cache for
// cacheable calls, retries and route fallback, the store write (cache and journal), and one usage
// record per answer for --stats and the journal.
//
// Retries: a 429 or 503 (the provider did nothing) waits — honouring Retry-After — and tries
// again, then falls through to the next route. Other 5xx answers, dropped connections and the
// deadline are retried only for calls without effects; for an effect (speech, images, video) they
// make the call *uncertain*: the provider may have done the work, and it is never sent again
// automatically. A connection that was refused carried nothing, so the next route may try.

import { createHash } from "node:crypto";
import { canonicalJson } from "../../canonical-json.js";
import type { Route } from "../../config/index.js";
import { PLAN_DEFAULTS } from "../../host-tool-defaults.js";
import type { StoreOpener } from "../store.js";
import {
  AttemptError,
  malformedFailure,
  networkFailure,
  serverFailure,
  ServiceError,
  statusFailure,
  statusLabel,
  timeoutFailure,
  uncertainFailure,
  type AttemptFailure,
} from "./service-error.js";
import type { AttemptEnv } from "./transport.js";
import { abortableSleep } from "../../model/abortable-sleep.js";

export interface ServiceResult {
  json: unknown;
  blob?: Buffer | null;
  usage?: { input?: number; output?: number };
}

export interface ServiceSpec {
  capability: string;
  /** Names the endpoint in a 404 message, e.g. "/embeddings". */
  endpoint: string;
  routes: Route[];
  /** Everything that decides the answer besides the route: canonical JSON, no secrets. */
  request: unknown;
  cacheable: boolean;
  /** True for calls with effects (see the header). */
  effect: boolean;
  perform(route: Route, env: AttemptEnv): Promise<ServiceResult>;
}

export interface ServiceAnswer {
  key: string;
  json: unknown;
  blob: Buffer | null;
  cached: boolean;
  replayed: boolean;
}

export interface UsageRecord {
  capability: string;
  route: string;
  cached: boolean;
  replayed: boolean;
  usage: { input?: number; output?: number } | null;
  seconds: number;
}

export interface CallerOptions {
  store: StoreOpener;
  replay: boolean;
  /** The journal records this run: results of effects are stored too, for --replay. */
  record: boolean;
  /** The 24 h cache is on (AIYTHON_NO_CACHE unset). */
  cache: boolean;
  onUsage?: (record: UsageRecord) => void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

export interface CallOptions {
  signal: AbortSignal;
  deadline: number;
  /** The step's `cache`: false skips the lookup (the answer is still stored). */
  useCache: boolean;
  /** Names the step in a --replay miss. */
  step: string;
}

export function serviceKey(spec: Pick<ServiceSpec, "capability" | "routes" | "request">): string {
  const route = spec.routes[0];
  const text = canonicalJson({ capability: spec.capability, route: route.id, model: route.model, request: spec.request });
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export class ServiceCaller {
  private pruned = false;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(private readonly opts: CallerOptions) {
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? abortableSleep;
  }

  async call(spec: ServiceSpec, options: CallOptions): Promise<ServiceAnswer> {
    const key = serviceKey(spec);
    const started = this.now();
    const store = await this.opts.store();
    if (store && !this.pruned) {
      this.pruned = true;
      store.pruneResults(PLAN_DEFAULTS.cacheTtlMs);
    }
    const found = this.opts.replay || (this.opts.cache && spec.cacheable && options.useCache) ? (store?.findResult(key) ?? null) : null;
    if (this.opts.replay) {
      if (!found) throw new ServiceError("replay_miss", `--replay: no recorded answer for step "${options.step}" (${spec.capability}) — run once without --replay to record it`);
      return this.answer(spec, key, found, { cached: false, replayed: true, started, route: spec.routes[0].id, usage: null });
    }
    if (found && this.now() - found.storedAt < PLAN_DEFAULTS.cacheTtlMs) {
      return this.answer(spec, key, found, { cached: true, replayed: false, started, route: spec.routes[0].id, usage: null });
    }
    const { result, route } = await this.attempt(spec, options);
    const json = JSON.stringify(result.json ?? null);
    if (store && (spec.cacheable || this.opts.record)) {
      store.putResult({ key, capability: spec.capability, route: route.id, json, blob: result.blob ?? null, journaled: this.opts.record });
    }
    return this.answer(spec, key, { json, blob: result.blob ?? null }, { cached: false, replayed: false, started, route: route.id, usage: result.usage ?? null });
  }

  private answer(
    spec: ServiceSpec,
    key: string,
    stored: { json: string; blob: Buffer | null },
    info: { cached: boolean; replayed: boolean; started: number; route: string; usage: UsageRecord["usage"] },
  ): ServiceAnswer {
    this.opts.onUsage?.({
      capability: spec.capability,
      route: info.route,
      cached: info.cached,
      replayed: info.replayed,
      usage: info.usage,
      seconds: (this.now() - info.started) / 1000,
    });
    return { key, json: JSON.parse(stored.json), blob: stored.blob, cached: info.cached, replayed: info.replayed };
  }

  /** The routes in order, each with its retries (see the header). */
  private async attempt(spec: ServiceSpec, options: CallOptions): Promise<{ result: ServiceResult; route: Route }> {
    let last: ServiceError | null = null;
    for (const route of spec.routes) {
      const outcome = await this.tryRoute(spec, route, options);
      if ("result" in outcome) return { result: outcome.result, route };
      last = outcome.error;
      if (!outcome.fallThrough) break;
    }
    throw last ?? new ServiceError("failed", `no route answered for ${spec.capability}`);
  }

  private async tryRoute(spec: ServiceSpec, route: Route, options: CallOptions): Promise<{ result: ServiceResult } | { error: ServiceError; fallThrough: boolean }> {
    for (let retry = 0; ; retry += 1) {
      const remainingMs = options.deadline - this.now();
      if (options.signal.aborted) return { error: new ServiceError("cancelled", "cancelled"), fallThrough: false };
      if (remainingMs <= 0) return { error: timeoutFailure(spec.capability, route), fallThrough: false };
      try {
        return { result: await spec.perform(route, { signal: options.signal, remainingMs }) };
      } catch (err) {
        if (!(err instanceof AttemptError)) throw err;
        const decision = this.decide(spec, route, err.failure, retry, options);
        if ("error" in decision) return decision;
        await this.sleep(decision.waitMs, options.signal);
      }
    }
  }

  private decide(
    spec: ServiceSpec,
    route: Route,
    failure: AttemptFailure,
    retry: number,
    options: CallOptions,
  ): { waitMs: number } | { error: ServiceError; fallThrough: boolean } {
    const { capability } = spec;
    const canWait = (waitMs: number) => retry < PLAN_DEFAULTS.maxRetries && this.now() + waitMs < options.deadline;
    const backoff = Math.min(PLAN_DEFAULTS.backoffMaxMs, PLAN_DEFAULTS.backoffBaseMs * 2 ** retry);
    switch (failure.kind) {
      case "aborted":
        if (options.signal.aborted) return { error: new ServiceError("cancelled", "cancelled"), fallThrough: false };
        return { error: spec.effect ? uncertainFailure(capability, route, "the deadline came") : timeoutFailure(capability, route), fallThrough: false };
      case "malformed":
        return { error: malformedFailure(capability, route, failure.detail), fallThrough: false };
      case "network":
        if (!failure.sent) return { error: networkFailure(capability, route, failure.reason), fallThrough: true };
        if (spec.effect) return { error: uncertainFailure(capability, route, `the connection failed (${failure.reason})`), fallThrough: false };
        return canWait(backoff) ? { waitMs: backoff } : { error: serverFailure(capability, route, failure.reason, retry), fallThrough: true };
      case "status": {
        const nothingDone = failure.status === 429 || failure.status === 503;
        if (nothingDone || (failure.status >= 500 && !spec.effect)) {
          const waitMs = failure.retryAfterMs ?? backoff;
          return canWait(waitMs) ? { waitMs } : { error: serverFailure(capability, route, statusLabel(failure), retry), fallThrough: nothingDone };
        }
        if (failure.status >= 500) return { error: uncertainFailure(capability, route, `the provider answered ${statusLabel(failure)}`), fallThrough: false };
        return { error: statusFailure(capability, route, failure, spec.endpoint), fallThrough: false };
      }
    }
  }
}
