// Step results as JSON text for the bridge's `hold_values` (docs/protocol.md): JavaScript has one
// number type, so a float result that happens to be whole (a cosine score of 1, a vector
// component of 0) would reach Python as an int. Each capability names where its floats are
// (paths with "*" for any key or index); numbers there are written as Python floats (`1.0`).

import { isPlainObject } from "./plan-types.js";

/** e.g. `["*", "score"]`: the score of every item of a list. */
export type FloatPath = readonly string[];

export function pythonJson(value: unknown, floats: readonly FloatPath[]): string {
  return encode(value, [], floats);
}

function matches(path: readonly string[], pattern: FloatPath): boolean {
  return path.length === pattern.length && pattern.every((part, i) => part === "*" || part === path[i]);
}

function encode(value: unknown, path: string[], floats: readonly FloatPath[]): string {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "null";
    const text = JSON.stringify(value);
    const isFloat = floats.some((pattern) => matches(path, pattern));
    return isFloat && /^-?\d+$/.test(text) ? `${text}.0` : text;
  }
  if (Array.isArray(value)) return `[${value.map((item, i) => encode(item, [...path, String(i)], floats)).join(",")}]`;
  if (isPlainObject(value)) {
    const members = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => `${JSON.stringify(key)}:${encode(item, [...path, key], floats)}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
