// Canonical JSON (SPEC §5.1, §11): sorted keys at every level, compact, no NaN/Infinity,
// undefined members dropped. The same value always gives the same bytes: request messages stay
// stable for provider prompt caches (src/invocation/prompt.ts) and the same model request always
// hashes to the same journal key (src/journal). Shared by both layers, like errors.ts.
//
// Every block encodes its request this way (twice with the journal on), so the encoder keeps no
// path while it works: a value JSON cannot hold stops it, and only then is the value walked again,
// with paths, to name where that value is. A value made fixed (`fixedValue`: deep-frozen, as a
// run's tool schemas are) is encoded once, here and by `plainJson` (JSON.stringify's text).

/**
 * Values made fixed: deep-frozen, so their text cannot go stale, and encoded once each way (null
 * until first asked). A run's tool schemas are such values: every block of a kind sends the same.
 */
const fixedTexts = new WeakMap<object, { canonical: string | null; plain: string | null }>();

/** Deep-freezes `value` and lets both encoders remember its text. */
export function fixedValue<T extends object>(value: T): T {
  deepFreeze(value);
  fixedTexts.set(value, { canonical: null, plain: null });
  return value;
}

/** JSON.stringify(value), computed once for a fixed value. */
export function plainJson(value: unknown): string {
  const texts = typeof value === "object" && value !== null ? fixedTexts.get(value) : undefined;
  if (!texts) return JSON.stringify(value);
  return (texts.plain ??= JSON.stringify(value));
}

function deepFreeze(value: object): void {
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) if (typeof member === "object" && member !== null) deepFreeze(member);
}

export function canonicalJson(value: unknown): string {
  try {
    return encode(value);
  } catch (error) {
    if (error !== UNENCODABLE) throw error;
    throw new TypeError(unencodable(value, "$") ?? "canonical JSON: a value JSON cannot hold");
  }
}

const UNENCODABLE = new Error("canonical JSON: a value JSON cannot hold");

function encode(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw UNENCODABLE;
      return JSON.stringify(value);
    case "object": {
      const texts = fixedTexts.get(value as object);
      if (texts) return (texts.canonical ??= encodeObject(value as object));
      return encodeObject(value as object);
    }
    default:
      throw UNENCODABLE;
  }
}

function encodeObject(value: object): string {
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + encode(value[i] ?? null);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = "{";
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${(out.length > 1 ? "," : "") + JSON.stringify(key)}:${encode(member)}`;
  }
  return `${out}}`;
}

/** The message naming the first value JSON cannot hold, in the encoder's order (sorted keys). */
function unencodable(value: unknown, path: string): string | null {
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : `canonical JSON: ${path} is ${value}, which JSON cannot hold`;
  if (typeof value !== "object") return `canonical JSON: ${path} is a ${typeof value}, which JSON cannot hold`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unencodable(value[i] ?? null, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) {
    const found = record[key] === undefined ? null : unencodable(record[key], `${path}.${key}`);
    if (found) return found;
  }
  return null;
}
