// Canonical JSON (SPEC §5.1, §11): sorted keys at every level, compact, no NaN/Infinity,
// undefined members dropped. The same value always gives the same bytes: request messages stay
// stable for provider prompt caches (src/recovery/prompt.ts) and the same model request always
// hashes to the same journal key (src/capabilities/journal). Shared by both layers, like errors.ts.
//
// Every block encodes its request this way (twice with the journal on), so the encoder keeps no
// path while it works: a value JSON cannot hold stops it, and the value is encoded again with
// paths only to name where that value is.

export function canonicalJson(value: unknown): string {
  try {
    return encode(value);
  } catch (error) {
    if (error !== UNENCODABLE) throw error;
    return encodeAt(value, "$");
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
        out += (out.length > 1 ? "," : "") + JSON.stringify(key) + ":" + encode(member);
      }
      return `${out}}`;
    }
    default:
      throw UNENCODABLE;
  }
}

/** The slow encoder, which knows where it is: it names the value JSON cannot hold. */
function encodeAt(value: unknown, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON: ${path} is ${value}, which JSON cannot hold`);
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((item, i) => encodeAt(item ?? null, `${path}[${i}]`)).join(",")}]`;
      const record = value as Record<string, unknown>;
      const members = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${encodeAt(record[key], `${path}.${key}`)}`);
      return `{${members.join(",")}}`;
    }
    default:
      throw new TypeError(`canonical JSON: ${path} is a ${typeof value}, which JSON cannot hold`);
  }
}
