// Pieces of the params schemas of the capabilities (SPEC §10). Each capability writes one schema
// in which `ref(...)` marks a value that may also be a `$ref` to an earlier step; validate-plan.ts
// checks params with that lenient form before anything runs, and the strict form (the `$ref`
// branches removed) once the references are filled in, just before the step runs. An `$asset`
// param is always the object `{"$asset": path}`.

import { isPlainObject } from "./plan-types.js";

export type Schema = Record<string, unknown>;

const REF_BRANCH: Schema = {
  type: "object",
  required: ["$ref"],
  properties: { $ref: { type: "string" }, path: { type: "array" } },
  additionalProperties: false,
};

/** `schema`, or a `$ref` whose value is checked when the step runs. */
export function ref(schema: Schema): Schema {
  return { anyOf: [schema, REF_BRANCH] };
}

export const text = (extra: Schema = {}): Schema => ref({ type: "string", minLength: 1, ...extra });
export const integer = (minimum: number, maximum: number): Schema => ref({ type: "integer", minimum, maximum });
export const number = (minimum: number, maximum: number): Schema => ref({ type: "number", minimum, maximum });
export const oneOf = (values: readonly string[]): Schema => ref({ type: "string", enum: [...values] });
export const listOf = (item: Schema, maxItems = 2048): Schema => ref({ type: "array", minItems: 1, maxItems, items: item });

/** `{"$asset": path}`; the path itself may come from a `$ref` (a generated file). */
export const asset: Schema = ref({
  type: "object",
  required: ["$asset"],
  properties: { $asset: { anyOf: [{ type: "string", minLength: 1 }, REF_BRANCH] } },
  additionalProperties: false,
});

export function params(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** The schema with every `$ref` branch removed: what the filled-in params must match. */
export function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!isPlainObject(schema)) return schema;
  const anyOf = schema.anyOf;
  if (Array.isArray(anyOf) && anyOf.includes(REF_BRANCH)) {
    const rest = anyOf.filter((branch) => branch !== REF_BRANCH).map(strict);
    return rest.length === 1 ? rest[0] : { anyOf: rest };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = strict(value);
  return out;
}

/** Whether a schema came from `ref(...)` (used to word errors). */
export function isRefBranch(schema: unknown): boolean {
  return schema === REF_BRANCH;
}
