// What every capability of SPEC §10 provides to the plan machinery, and what a running step may
// use. One handler per capability (embedding/, search/, reranking/, vision/, document/, speech/,
// image/, video/); registry.ts lists them. A handler never sees the model, the frame or SQLite
// directly: its params arrive validated and filled in, its provider calls go through the
// ServiceCaller (cache, replay, retries, usage), and its files through Assets and Artifacts.

import type { Route } from "../config/index.js";
import type { Artifacts } from "./artifacts.js";
import type { CapabilityName, RoutedCapability } from "./names.js";
import type { Asset, Assets } from "./plan/assets.js";
import type { FloatPath } from "./plan/python-json.js";
import type { Schema } from "./plan/schema-parts.js";
import type { ServiceAnswer, ServiceSpec } from "./service/call-service.js";
import type { CapabilityStore } from "./store.js";

export interface StepContext {
  stepId: string;
  /** The routes of a routed capability for this step (its `provider` applied). */
  routes(capability: RoutedCapability): Route[];
  /** One provider call through the cache, replay and retries. */
  call(spec: ServiceSpec): Promise<ServiceAnswer>;
  /** The asset a filled-in `{"$asset": path}` names (checked again: the path may have come from a `$ref`). */
  asset(value: unknown): Asset;
  assets: Assets;
  artifacts: Artifacts;
  /** The project's store; throws a step error when it cannot be opened. */
  store(): Promise<CapabilityStore>;
  signal: AbortSignal;
  deadline: number;
  /** Where the block stands ("notes.py:7"), for jobs. */
  origin: string | null;
}

export interface CapabilityHandler {
  name: CapabilityName;
  /** One line for the model: params and result, e.g. `embedding {input: str|[str]} -> vector(s)`. */
  guide: string;
  /** The params schema, with `ref(...)` where a `$ref` may stand (plan/schema-parts.ts). */
  params: Schema;
  /** The routed capability the step calls with these params, or null when it is local work only. */
  needs(params: Record<string, unknown>): RoutedCapability | null;
  /** No effects beyond the answer: such steps run in parallel and may be cached. */
  pure(params: Record<string, unknown>): boolean;
  /** Writes files under .aiython/artifacts (the `generate_file` permission). */
  writesFiles(params: Record<string, unknown>): boolean;
  /** Where the result's floats are (plan/python-json.ts). */
  floats: readonly FloatPath[];
  run(params: Record<string, unknown>, ctx: StepContext): Promise<unknown>;
}
