// Runs a validated plan (SPEC §10): steps start when every step they refer to has succeeded;
// ready pure steps run side by side on PLAN_DEFAULTS.workers workers, a step with effects runs
// alone and in plan order; a step whose reference failed is skipped. Each step's `$ref`s are
// filled in from earlier results, its params checked again (strict), and its fingerprint — the
// capability, its routes and the filled-in params with assets by content — looked up in the
// invocation's memo: a step done before in this invocation is answered from it (`reused`), and one
// whose submission was uncertain or is still pending is never submitted again.

import { createHash } from "node:crypto";
import type { StepOutcome } from "../../capability-port.js";
import { canonicalJson } from "../../canonical-json.js";
import type { Route } from "../../config/index.js";
import { PLAN_DEFAULTS } from "../../host-tool-defaults.js";
import type { StepContext } from "../handler.js";
import { StepError } from "../step-error.js";
import { HANDLERS } from "../registry.js";
import { ServiceError } from "../service/service-error.js";
import { PendingJob } from "../video/video-jobs.js";
import { paramsProblem } from "./params-check.js";
import type { PlannedStep } from "./plan-types.js";
import { pythonJson } from "./python-json.js";
import { followPath, mapParams, refKind } from "./references.js";

export type StepContextFactory = (step: PlannedStep, routes: Map<string, Route[]>, calls: { cached: number; replayed: number; live: number }) => StepContext;

export interface RunInput {
  steps: PlannedStep[];
  routes: Map<string, Map<string, Route[]>>;
  context: StepContextFactory;
  /** Fingerprint → outcome of steps already run in this invocation. */
  memo: Map<string, StepOutcome>;
  signal: AbortSignal;
}

export async function runSteps(input: RunInput): Promise<{ id: string; outcome: StepOutcome }[]> {
  const outcomes = new Map<string, StepOutcome>();
  const results = new Map<string, unknown>();
  const running = new Map<string, { effect: boolean; done: Promise<void> }>();
  let waiting = [...input.steps];
  while (waiting.length > 0 || running.size > 0) {
    waiting = waiting.filter((step) => {
      const failed = step.needs.find((id) => outcomes.has(id) && outcomes.get(id)!.status !== "ok");
      if (failed === undefined && !input.signal.aborted) return true;
      outcomes.set(step.id, { status: "skipped", message: input.signal.aborted ? "the invocation was cancelled" : `step "${failed}" did not succeed` });
      return false;
    });
    for (const step of [...waiting]) {
      if (!step.needs.every((id) => outcomes.get(id)?.status === "ok")) continue;
      const effect = !HANDLERS[step.capability].pure(step.params);
      const busy = [...running.values()];
      if (effect ? busy.length > 0 : busy.length >= PLAN_DEFAULTS.workers || busy.some((r) => r.effect)) break;
      waiting = waiting.filter((s) => s !== step);
      const done = runOne(step, results, input).then((outcome) => {
        outcomes.set(step.id, outcome);
        running.delete(step.id);
      });
      running.set(step.id, { effect, done });
      if (effect) break;
    }
    if (running.size === 0) break;
    await Promise.race([...running.values()].map((r) => r.done));
  }
  return input.steps.map((step) => ({ id: step.id, outcome: outcomes.get(step.id) ?? { status: "skipped", message: "its references could not be run" } }));
}

async function runOne(step: PlannedStep, results: Map<string, unknown>, input: RunInput): Promise<StepOutcome> {
  const handler = HANDLERS[step.capability];
  const filled = fillRefs(step, results);
  if (typeof filled === "string") return { status: "error", message: filled };
  const problem = paramsProblem(handler, filled, `step "${step.id}"`, "strict");
  if (problem) return { status: "error", message: problem };
  const calls = { cached: 0, replayed: 0, live: 0 };
  const ctx = input.context(step, input.routes.get(step.id) ?? new Map(), calls);
  let fingerprint: string;
  try {
    fingerprint = fingerprintOf(step, filled, input.routes.get(step.id), ctx);
  } catch (error) {
    return failure(error, step);
  }
  const earlier = input.memo.get(fingerprint);
  if (earlier) return earlier.status === "ok" ? { ...earlier, reused: true } : earlier;
  try {
    const value = await handler.run(filled, ctx);
    results.set(step.id, value);
    const served = calls.cached + calls.replayed + calls.live > 0 && calls.live === 0;
    const outcome: StepOutcome = {
      status: "ok",
      valueJson: pythonJson(value, handler.floats),
      ...(served && calls.replayed === 0 ? { cached: true } : {}),
      ...(served && calls.replayed > 0 ? { replayed: true } : {}),
    };
    input.memo.set(fingerprint, outcome);
    return outcome;
  } catch (error) {
    const outcome = failure(error, step);
    if (outcome.status === "uncertain" || outcome.status === "pending") input.memo.set(fingerprint, outcome);
    return outcome;
  }
}

function fillRefs(step: PlannedStep, results: Map<string, unknown>): Record<string, unknown> | string {
  let problem: string | null = null;
  const filled = mapParams(step.params, (node, at) => {
    if (refKind(node) !== "$ref") return undefined;
    const ref = node as { $ref: string; path?: (string | number)[] };
    const found = followPath(results.get(ref.$ref), ref.path ?? [], `step "${step.id}" ${at}: $ref "${ref.$ref}"`);
    if (!found.ok) problem ??= found.message;
    return found.ok ? found.value : null;
  });
  return problem ?? (filled as Record<string, unknown>);
}

function fingerprintOf(step: PlannedStep, params: Record<string, unknown>, routes: Map<string, Route[]> | undefined, ctx: StepContext): string {
  const content = mapParams(params, (node) => {
    if (refKind(node) !== "$asset") return undefined;
    return { $asset: ctx.assets.contentHash(ctx.asset(node)) };
  });
  const routeIds = [...(routes ?? new Map()).entries()].map(([name, list]) => [name, list.map((r: Route) => r.id)]);
  return createHash("sha256")
    .update(canonicalJson({ capability: step.capability, routes: routeIds, params: content }), "utf8")
    .digest("hex");
}

function failure(error: unknown, step: PlannedStep): StepOutcome {
  if (error instanceof PendingJob) return { status: "pending", job: error.job, message: error.message };
  if (error instanceof ServiceError) {
    if (error.kind === "uncertain") return { status: "uncertain", message: error.message };
    return { status: "error", message: error.kind === "cancelled" ? "the invocation was cancelled" : error.message };
  }
  if (error instanceof StepError) return { status: "error", message: `step "${step.id}": ${error.message}` };
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return { status: "error", message: `step "${step.id}": a file could not be read or written (${code})` };
  throw error;
}
