// echo-finish: an instant model for benchmarks and the loopback model's `--echo-finish` mode. It
// answers every request at once with the terminal tool the request offers, reading what the
// block needs (requires_result, the output schema) from the request's own JSON user messages.

import { finishCall, toolCall, type Responder } from "./loopback-replies.js";

/** Depth-first search of parsed JSON for the first value under `key`. */
function findKey(value: unknown, key: (name: string) => boolean, depth = 0): unknown {
  if (depth > 8 || typeof value !== "object" || value === null) return undefined;
  for (const [name, inner] of Object.entries(value)) {
    if (key(name)) return inner;
  }
  for (const inner of Object.values(value)) {
    const found = findKey(inner, key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The simplest value a JSON Schema accepts: first enum/const, else the zero of its type. */
function zeroOf(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return null;
  const s = schema as Record<string, unknown>;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const branch of ["anyOf", "oneOf"]) {
    if (Array.isArray(s[branch]) && (s[branch] as unknown[]).length > 0) return zeroOf((s[branch] as unknown[])[0]);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "integer":
    case "number":
      return 0;
    case "string":
      return "";
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return null;
  }
}

/**
 * Answers every request at once with the terminal tool it offers: `finish` with `literal` when
 * given, else — reading the request's JSON user messages — `{"kind":"none"}` unless
 * `requires_result` is true, in which case a literal of the simplest value the output schema (a
 * key ending in "schema") accepts; `recover` with `reraise`. No terminal tool: a content reply.
 */
export function echoFinishResponder(opts: { literal?: unknown; delayMs?: number } = {}): Responder {
  return (request) => {
    const tools: string[] = (request.body?.tools ?? []).map((t: { function?: { name?: string } }) => t.function?.name);
    const delay = opts.delayMs ? { delayMs: opts.delayMs } : {};
    if (tools.includes("finish")) {
      if (opts.literal !== undefined) return { ...delay, ...finishCall({ kind: "literal", value: opts.literal }) };
      const parsed = (request.body?.messages ?? [])
        .filter((m: { role?: string }) => m.role === "user")
        .map((m: { content?: unknown }) => {
          try {
            return JSON.parse(String(m.content));
          } catch {
            return undefined;
          }
        });
      const requires = findKey(parsed, (name) => name === "requires_result");
      if (requires !== true) return { ...delay, ...finishCall({ kind: "none" }) };
      const schema = findKey(parsed, (name) => name.endsWith("schema"));
      return { ...delay, ...finishCall({ kind: "literal", value: zeroOf(schema) }) };
    }
    if (tools.includes("recover")) return { ...delay, toolCalls: [toolCall("recover", { action: "reraise" })] };
    return { ...delay, content: "loopback: the request offered no terminal tool" };
  };
}
