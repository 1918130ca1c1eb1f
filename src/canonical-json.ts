// Canonical JSON (SPEC §5.1, §11): sorted keys at every level, compact, no NaN/Infinity,
// undefined members dropped. The same value always gives the same bytes: request messages stay
// stable for provider prompt caches (src/recovery/prompt.ts) and the same model request always
// hashes to the same journal key (src/capabilities/journal). Shared by both layers, like errors.ts.

export function canonicalJson(value: unknown): string {
  return encode(value, "$");
}

function encode(value: unknown, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON: ${path} is ${value}, which JSON cannot hold`);
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((item, i) => encode(item ?? null, `${path}[${i}]`)).join(",")}]`;
      const record = value as Record<string, unknown>;
      const members = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${encode(record[key], `${path}.${key}`)}`);
      return `{${members.join(",")}}`;
    }
    default:
      throw new TypeError(`canonical JSON: ${path} is a ${typeof value}, which JSON cannot hold`);
  }
}
