// The whole plan checked before any step runs (SPEC §10): the steps' ids, capabilities, routes
// and providers, the frame references (read once, then substituted), the shape of every
// reference, `$asset` paths, params against each capability's schema, `$ref`s to steps that exist
// and form no cycle, and the permissions the steps need. Any problem rejects the plan as one error
// listing them all, and nothing has run. A step needing a capability that has no route is
// answered apart: the invocation ends with an `error` outcome naming that capability.

import type { PlanFrame, PlanValueRef } from "../../capability-port.js";
import type { CapabilitySettings, Route } from "../../config/index.js";
import { PLAN_DEFAULTS } from "../../host-tool-defaults.js";
import { isCapabilityName, CAPABILITY_NAMES, type CapabilityName } from "../names.js";
import { HANDLERS } from "../registry.js";
import type { Assets } from "./assets.js";
import { paramsProblem } from "./params-check.js";
import { isPlainObject, type PlannedStep, type RawStep } from "./plan-types.js";
import { frameRefKey, frameRefs, mapParams, refKind, refShapeProblem, stepRefs } from "./references.js";

export interface PlanContext {
  capabilities: Record<string, CapabilitySettings>;
  permissions: ReadonlySet<string>;
  profile: string;
  assets: Assets;
  /** The block's `provider` directive: the default provider of its steps where it names a route. */
  directiveProvider: string | null;
}

export type Validated =
  | { ok: true; steps: PlannedStep[]; routes: Map<string, Map<string, Route[]>> }
  | { ok: false; missing: CapabilityName; message: string }
  | { ok: false; missing: null; message: string };

const reject = (problems: string[]): Validated => ({ ok: false, missing: null, message: `the plan was rejected: ${problems.slice(0, 8).join("; ")}` });

export async function validatePlan(raw: unknown, frame: PlanFrame, ctx: PlanContext): Promise<Validated> {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > PLAN_DEFAULTS.maxSteps) return reject([`steps must be a list of 1 to ${PLAN_DEFAULTS.maxSteps} steps`]);
  const steps = raw as RawStep[];
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id)) problems.push(`step id "${step.id}" is used twice`);
    ids.add(step.id);
    if (!isCapabilityName(step.capability)) problems.push(`step "${step.id}": unknown capability "${step.capability}"; valid: ${CAPABILITY_NAMES.join(", ")}`);
  }
  if (problems.length > 0) return reject(problems);
  const missing = missingRoute(steps, ctx);
  if (missing) return missing;

  const values = await readFrameValues(steps, frame);
  if (typeof values === "string") return reject([values]);
  const planned: PlannedStep[] = [];
  const routes = new Map<string, Map<string, Route[]>>();
  for (const step of steps) {
    const filled = fill(step, values, ids, ctx, problems);
    const handler = HANDLERS[step.capability as CapabilityName];
    const schemaProblem = paramsProblem(handler, filled, `step "${step.id}"`, "lenient");
    if (schemaProblem) problems.push(schemaProblem);
    routes.set(step.id, stepRoutes(step, filled, ctx, problems));
    planned.push({ id: step.id, capability: handler.name, params: filled, needs: stepRefs(filled), provider: step.provider ?? null, cache: step.cache ?? true });
  }
  const cycle = findCycle(planned);
  if (cycle) problems.push(`steps ${cycle.map((id) => `"${id}"`).join(" -> ")} refer to each other in a cycle`);
  problems.push(...permissionProblems(planned, ctx));
  return problems.length > 0 ? reject(problems) : { ok: true, steps: planned, routes };
}

function missingRoute(steps: RawStep[], ctx: PlanContext): Validated | null {
  for (const step of steps) {
    const need = HANDLERS[step.capability as CapabilityName].needs(isPlainObject(step.params) ? step.params : {});
    if (need !== null && !ctx.capabilities[need]) {
      const via = need === step.capability ? "" : ` (step "${step.id}" uses ${step.capability}, which needs it)`;
      return { ok: false, missing: need, message: `capability "${need}" is not configured${via}: aiython.toml has no [capabilities.${need}] route` };
    }
  }
  return null;
}

async function readFrameValues(steps: RawStep[], frame: PlanFrame): Promise<Map<string, unknown> | string> {
  const refs: PlanValueRef[] = [];
  const seen = new Set<string>();
  for (const step of steps) {
    for (const ref of frameRefs(step.params)) {
      if (seen.has(frameRefKey(ref))) continue;
      seen.add(frameRefKey(ref));
      refs.push(ref);
    }
  }
  if (refs.length === 0) return new Map();
  const read = await frame.readValues(refs);
  if (!read.ok) return read.message;
  return new Map(refs.map((ref, i) => [frameRefKey(ref), read.values[i]]));
}

/** The step's params with frame values substituted and static assets normalised; problems collected. */
function fill(step: RawStep, values: Map<string, unknown>, ids: Set<string>, ctx: PlanContext, problems: string[]): Record<string, unknown> {
  const where = (at: string) => `step "${step.id}" ${at}`;
  const visit = (node: unknown, at: string): unknown => {
    const kind = refKind(node);
    if (kind === null) return undefined;
    const record = node as Record<string, unknown>;
    const shape = refShapeProblem(record, kind, where(at));
    if (shape) {
      problems.push(shape);
      return node;
    }
    if (kind === "$binding") return values.get(`b:${record.$binding}`);
    if (kind === "$handle") return values.get(`h:${record.$handle}`);
    if (kind === "$ref") {
      if (record.$ref === step.id) problems.push(`${where(at)}: a step cannot refer to itself`);
      else if (!ids.has(record.$ref as string)) problems.push(`${where(at)}: $ref names no step of this plan: "${String(record.$ref)}"`);
      return node;
    }
    const target = mapParams(record.$asset, visit, `${at}.$asset`);
    if (typeof target !== "string") return { $asset: target };
    const asset = ctx.assets.check(target);
    if (typeof asset === "string") {
      problems.push(`${where(at)}: ${asset}`);
      return node;
    }
    return { $asset: asset.rel };
  };
  return mapParams(isPlainObject(step.params) ? step.params : {}, visit) as Record<string, unknown>;
}

function stepRoutes(step: RawStep, params: Record<string, unknown>, ctx: PlanContext, problems: string[]): Map<string, Route[]> {
  const out = new Map<string, Route[]>();
  const need = HANDLERS[step.capability as CapabilityName].needs(params);
  if (need === null) return out;
  const all = ctx.capabilities[need].routes;
  const provider = step.provider ?? (ctx.directiveProvider && all.some((r) => matches(r, ctx.directiveProvider!)) ? ctx.directiveProvider : null);
  const chosen = provider === null ? all : all.filter((route) => matches(route, provider));
  if (chosen.length === 0) problems.push(`step "${step.id}": provider "${provider}" names no route of [capabilities.${need}]; its routes: ${all.map((r) => r.id).join(", ")}`);
  out.set(need, chosen);
  return out;
}

function matches(route: Route, provider: string): boolean {
  return route.id === provider || route.provider === provider || route.model === provider;
}

function findCycle(steps: PlannedStep[]): string[] | null {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === "done") return null;
    if (state.get(id) === "open") return [...trail.slice(trail.indexOf(id)), id];
    state.set(id, "open");
    trail.push(id);
    for (const next of byId.get(id)?.needs ?? []) {
      const cycle = byId.has(next) ? visit(next) : null;
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(id, "done");
    return null;
  };
  for (const step of steps) {
    const cycle = visit(step.id);
    if (cycle) return cycle;
  }
  return null;
}

function permissionProblems(steps: PlannedStep[], ctx: PlanContext): string[] {
  const needed = new Map<string, string>();
  for (const step of steps) {
    const handler = HANDLERS[step.capability];
    if (handler.needs(step.params) !== null) needed.set("network", needed.get("network") ?? step.id);
    if (handler.writesFiles(step.params)) needed.set("generate_file", needed.get("generate_file") ?? step.id);
    if (JSON.stringify(step.params).includes('"$asset"')) needed.set("read_asset", needed.get("read_asset") ?? step.id);
  }
  return [...needed]
    .filter(([permission]) => !ctx.permissions.has(permission))
    .map(([permission, id]) => `step "${id}" needs the ${permission} permission, which profile "${ctx.profile}" does not grant (permissions in aiython.toml)`);
}
