// The references a param value may hold (SPEC §10) and the walks over params that find and
// replace them: `{"$ref": step, "path": [...]}`, `{"$binding": name}`, `{"$handle": "object-N"}`
// and `{"$asset": path}`. An object is a reference when it has one of these keys; it must then
// have exactly the reference's fields, so a typo (`{"$ref": "a", "pth": []}`) is an error rather
// than data sent to a provider.

import type { PlanValueRef } from "../../capability-port.js";
import { isPlainObject, type PathKey, type StepRef } from "./plan-types.js";

const REF_KEYS = ["$ref", "$binding", "$handle", "$asset"] as const;
const ALLOWED: Record<(typeof REF_KEYS)[number], readonly string[]> = {
  $ref: ["$ref", "path"],
  $binding: ["$binding"],
  $handle: ["$handle"],
  $asset: ["$asset"],
};

export type RefKind = (typeof REF_KEYS)[number];

/** The reference kind of `value`, or null for plain data. */
export function refKind(value: unknown): RefKind | null {
  if (!isPlainObject(value)) return null;
  return REF_KEYS.find((key) => Object.hasOwn(value, key)) ?? null;
}

/** The problem with a reference's shape, or null. `where` names it, e.g. `step "a" params.input`. */
export function refShapeProblem(value: Record<string, unknown>, kind: RefKind, where: string): string | null {
  const extra = Object.keys(value).filter((key) => !ALLOWED[kind].includes(key));
  if (extra.length > 0) return `${where}: a ${kind} reference takes only ${ALLOWED[kind].join(", ")}; remove ${extra.join(", ")}`;
  const target = value[kind];
  if (kind === "$asset") return typeof target === "string" || refKind(target) !== null ? null : `${where}: $asset takes a project path (a string)`;
  if (typeof target !== "string" || target === "") return `${where}: ${kind} takes a non-empty string`;
  if (kind === "$handle" && !/^object-[0-9]+$/.test(target)) return `${where}: $handle takes an object handle like "object-3"`;
  if (kind === "$binding" && !/^[A-Za-z_][A-Za-z0-9_]*$/u.test(target)) return `${where}: $binding takes a Python name`;
  if (kind === "$ref" && value.path !== undefined) {
    const path = value.path;
    if (!Array.isArray(path) || !path.every((p) => typeof p === "string" || (Number.isInteger(p) && (p as number) >= 0))) {
      return `${where}: $ref path must be a list of keys (strings) and indexes (whole numbers)`;
    }
  }
  return null;
}

/** Visits every value of a params tree depth-first; `visit` returns a replacement or undefined. */
export function mapParams(value: unknown, visit: (node: unknown, where: string) => unknown, where = "params"): unknown {
  const replaced = visit(value, where);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(value)) return value.map((item, i) => mapParams(item, visit, `${where}[${i}]`));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = mapParams(item, visit, `${where}.${key}`);
    return out;
  }
  return value;
}

/** Every `$binding` / `$handle` of the params, in order of appearance (duplicates kept once). */
export function frameRefs(params: unknown): PlanValueRef[] {
  const found = new Map<string, PlanValueRef>();
  mapParams(params, (node) => {
    const kind = refKind(node);
    const record = node as Record<string, unknown>;
    if (kind === "$binding" && typeof record.$binding === "string") found.set(`b:${record.$binding}`, { kind: "binding", name: record.$binding });
    if (kind === "$handle" && typeof record.$handle === "string") found.set(`h:${record.$handle}`, { kind: "handle", id: record.$handle });
    return undefined;
  });
  return [...found.values()];
}

export function frameRefKey(ref: PlanValueRef): string {
  return ref.kind === "binding" ? `b:${ref.name}` : `h:${ref.id}`;
}

/** The ids of the steps a params tree refers to. */
export function stepRefs(params: unknown): string[] {
  const ids = new Set<string>();
  mapParams(params, (node) => {
    if (refKind(node) === "$ref" && typeof (node as StepRef).$ref === "string") ids.add((node as StepRef).$ref);
    return undefined;
  });
  return [...ids];
}

/** Follows `path` into a step result; the problem when a key or index is not there. */
export function followPath(value: unknown, path: readonly PathKey[], where: string): { ok: true; value: unknown } | { ok: false; message: string } {
  let node = value;
  for (const [i, key] of path.entries()) {
    const at = `${where} path[${i}] ${JSON.stringify(key)}`;
    if (typeof key === "number") {
      if (!Array.isArray(node) || key >= node.length) return { ok: false, message: `${at}: no item ${key} (the value there is ${shape(node)})` };
      node = node[key];
    } else {
      if (!isPlainObject(node) || !Object.hasOwn(node, key)) return { ok: false, message: `${at}: no key ${JSON.stringify(key)} (the value there is ${shape(node)})` };
      node = node[key];
    }
  }
  return { ok: true, value: node };
}

function shape(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (isPlainObject(value)) return `an object with keys ${Object.keys(value).slice(0, 8).join(", ") || "none"}`;
  return value === null ? "null" : `a ${typeof value}`;
}
