// Params of each capability against its schema (plan/schema-parts.ts), with ajv: the lenient form
// before anything runs (a `$ref` may stand where a value will be), the strict form once a step's
// references are filled in. Errors are worded like the batch's: the param's dotted path, what was
// wrong, and what is valid; never the value itself.

import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { CapabilityHandler } from "../handler.js";
import type { CapabilityName } from "../names.js";
import { strict } from "./schema-parts.js";

const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

function validator(handler: CapabilityHandler, form: "lenient" | "strict"): ValidateFunction {
  const key = `${handler.name}:${form}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(form === "lenient" ? handler.params : (strict(handler.params) as object));
    compiled.set(key, validate);
  }
  return validate;
}

/** The problem with `params` for `handler` (naming `where`), or null. */
export function paramsProblem(handler: CapabilityHandler, params: unknown, where: string, form: "lenient" | "strict"): string | null {
  const validate = validator(handler, form);
  if (validate(params)) return null;
  const errors = pick(validate.errors ?? []);
  const described = [...new Set(errors.map((e) => describe(e, handler.name)))];
  return `${where}: ${described.slice(0, 3).join("; ")}`;
}

/** The errors that say most: not anyOf summaries, not the `$ref` branch, deepest first. */
function pick(errors: readonly ErrorObject[]): ErrorObject[] {
  const useful = errors.filter((e) => e.keyword !== "anyOf" && !/\/anyOf\/1\//.test(`${e.schemaPath}/`));
  const pool = useful.length > 0 ? useful : [...errors];
  const depth = (e: ErrorObject) => e.instancePath.split("/").length;
  const deepest = Math.max(...pool.map(depth));
  return pool.filter((e) => depth(e) === deepest || e.keyword === "required" || e.keyword === "additionalProperties");
}

function describe(error: ErrorObject, capability: CapabilityName): string {
  const at = error.instancePath === "" ? "params" : `params.${error.instancePath.slice(1).replaceAll("/", ".")}`;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${at}: missing required "${String(p.missingProperty)}"`;
    case "additionalProperties": {
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return `${at}: unknown "${String(p.additionalProperty)}" for ${capability}; valid: ${known.join(", ")}`;
    }
    case "enum":
      return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "pattern":
      return `${at} may use only letters, digits, _, . and - (at most 64)`;
    default:
      return `${at} ${error.message ?? "is invalid"}`;
  }
}
