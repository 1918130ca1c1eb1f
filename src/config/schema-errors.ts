// Turns ajv's error list for aiython.toml into one message that names the file and the dotted
// key and says what was expected (SPEC §7). Values are never echoed, since any string in the file
// could be a pasted secret; only numbers, and short identifier-like words in enum slots, are.
//
// ajv reports every failed branch of an `anyOf` (e.g. `model` as string / table / list); the
// branch that matters is the one whose type matched, so type errors at a key are dropped when a
// more specific error exists at or below it, and the deepest remaining error wins.

import type { ErrorObject } from "ajv";
import { LOCAL_CAPABILITIES } from "../host-tool-defaults.js";

const TYPE_PHRASES: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean (true or false)",
  object: "a table",
  array: "an array",
  null: "nothing",
};

/** Hints for keys whose accepted shapes deserve more words than a list of types. */
const SHAPE_HINTS: Record<string, string> = {
  model: 'a model id string ("provider/model"), a route table {model, api_base, api_key_env}, or a list of those',
  api_base: "an http:// or https:// URL",
  api_key_env: "the NAME of an environment variable (letters, digits and _, not starting with a digit), not the key itself",
};

/** Unknown keys that suggest a key was pasted into the file. */
const SECRET_KEY_NAMES = /^(api[-_]?key|key|token|secret|password)$/i;

export function formatSchemaError(file: string, doc: unknown, errors: readonly ErrorObject[]): string {
  const chosen = pickErrors(errors);
  const first = chosen[0];
  if (first === undefined) return `${file}: invalid configuration`;
  const segments = pointerSegments(first.instancePath);
  const where = dottedKey(doc, segments);
  const value = valueAt(doc, segments);
  const lastKey = lastNamedKey(segments);
  const prefix = (key: string) => (key === "" ? `${file}: ` : `${file}: ${key}: `);

  switch (first.keyword) {
    case "type": {
      const types = [...new Set(chosen.filter((e) => e.keyword === "type").flatMap((e) => String(e.params.type).split(",")))];
      const expected = Object.hasOwn(SHAPE_HINTS, lastKey) && types.length > 1 ? SHAPE_HINTS[lastKey] : joinOr(types.map((t) => TYPE_PHRASES[t] ?? t));
      return `${prefix(where)}expected ${expected}, got ${describe(value)}`;
    }
    case "additionalProperties": {
      const key = String(first.params.additionalProperty);
      const allowed = Object.keys((first.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      if (SECRET_KEY_NAMES.test(key) && allowed.includes("api_key_env")) {
        return (
          `${prefix(joinKey(where, key))}unknown key; keys are never written to aiython.toml: put the key in the ` +
          `environment or in env_file, and name its variable with api_key_env`
        );
      }
      if (lastKey === "capabilities" && (LOCAL_CAPABILITIES as readonly string[]).includes(key)) {
        return `${prefix(joinKey(where, key))}${key} runs locally and needs no route: it uses [capabilities.embedding]; remove this table`;
      }
      const suggestion = closest(key, allowed);
      const hint = suggestion ? ` (did you mean "${suggestion}"?)` : "";
      return `${prefix(joinKey(where, key))}unknown key${hint}; allowed keys here: ${allowed.join(", ")}`;
    }
    case "required": {
      const key = String(first.params.missingProperty);
      if (where === "" && key === "version") return `${file}: version: missing; start the file with \`version = 3\``;
      return `${prefix(joinKey(where, key))}missing; a route table needs at least \`model\``;
    }
    case "const":
      if (lastKey === "version") return `${prefix(where)}must be 3 (this aiython reads configuration version 3), got ${safeScalar(value)}`;
      return `${prefix(where)}must be ${JSON.stringify(first.params.allowedValue)}`;
    case "enum": {
      const allowed = (first.params.allowedValues as unknown[]).map(String);
      const shown = safeWord(value);
      return `${prefix(where)}${shown ? `unknown value "${shown}"` : "unknown value"}; expected one of: ${allowed.join(", ")}`;
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `${prefix(where)}must be ${first.params.comparison} ${first.params.limit}, got ${safeScalar(value)}`;
    case "minLength":
      return `${prefix(where)}must not be empty`;
    case "minItems":
      return `${prefix(where)}must not be an empty list`;
    case "uniqueItems":
      return `${prefix(where)}lists the same entry twice (positions ${Math.min(first.params.i, first.params.j)} and ${Math.max(first.params.i, first.params.j)})`;
    case "pattern": {
      if (first.propertyName !== undefined) {
        const name = safeWord(first.propertyName);
        return `${prefix(where)}${name ? `profile name "${name}"` : "a profile name"} may use only letters, digits, _ and -`;
      }
      return `${prefix(where)}expected ${Object.hasOwn(SHAPE_HINTS, lastKey) ? SHAPE_HINTS[lastKey] : `text matching ${first.params.pattern}`}`;
    }
    default:
      return `${prefix(where)}${first.message ?? "invalid value"}`;
  }
}

/** The errors that describe the fault best: the deepest, most specific ones (see header). */
function pickErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  let useful = errors.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf" && e.keyword !== "propertyNames");
  if (useful.length === 0) useful = [...errors];
  const isUnder = (p: string, base: string) => p.startsWith(`${base}/`);
  useful = useful.filter(
    (e) => e.keyword !== "type" || !useful.some((o) => isUnder(o.instancePath, e.instancePath) || (o.instancePath === e.instancePath && o.keyword !== "type")),
  );
  const depth = (e: ErrorObject) => pointerSegments(e.instancePath).length;
  const deepest = Math.max(...useful.map(depth));
  const atDeepest = useful.filter((e) => depth(e) === deepest);
  const path = (atDeepest.find((e) => e.keyword !== "type") ?? atDeepest[0]).instancePath;
  const atPath = atDeepest.filter((e) => e.instancePath === path);
  return [...atPath.filter((e) => e.keyword !== "type"), ...atPath.filter((e) => e.keyword === "type")];
}

function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function valueAt(doc: unknown, segments: readonly string[]): unknown {
  let node = doc;
  for (const s of segments) node = (node as Record<string, unknown> | undefined)?.[s];
  return node;
}

/** `/profiles/fast/model/1/api_base` → `profiles.fast.model[1].api_base`. */
export function dottedKey(doc: unknown, segments: readonly string[]): string {
  let out = "";
  let node = doc;
  for (const s of segments) {
    out = Array.isArray(node) ? `${out}[${s}]` : joinKey(out, s);
    node = (node as Record<string, unknown> | undefined)?.[s];
  }
  return out;
}

/** Keys are shown (they are names), except overlong ones, which might be pasted material. */
function joinKey(base: string, key: string): string {
  const part = key.length > 40 ? `<a key of ${key.length} characters>` : /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
  return base === "" ? part : `${base}.${part}`;
}

function lastNamedKey(segments: readonly string[]): string {
  for (let i = segments.length - 1; i >= 0; i--) if (!/^\d+$/.test(segments[i])) return segments[i];
  return "";
}

function describe(value: unknown): string {
  if (value instanceof Date) return "a date";
  if (Array.isArray(value)) return "an array";
  if (value === null || value === undefined) return "nothing";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "bigint") return "an integer";
  return TYPE_PHRASES[typeof value] ?? typeof value;
}

/** Numbers are shown; anything else is described by its type only. */
function safeScalar(value: unknown): string {
  return typeof value === "number" || typeof value === "boolean" ? String(value) : describe(value);
}

/** A short identifier-like word may be shown (an enum slot); anything else is withheld. */
function safeWord(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z][A-Za-z0-9_]{0,23}$/.test(value) ? value : null;
}

function joinOr(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** The allowed key closest to a misspelt one, if it is close enough to be a typo. */
function closest(key: string, allowed: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(key.length / 3)) + 1;
  for (const candidate of allowed) {
    const d = editDistance(key.toLowerCase(), candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
