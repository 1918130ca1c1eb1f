// The arguments of one tool call (SPEC §5.3), for batch-validation.ts: the arguments string read
// strictly as one JSON object, then checked against the tool's schema (tool-validators.ts, built
// from tools.ts), each problem said as a message naming what would be valid.
//
// Decisions beyond the spec's list:
// - An empty or blank arguments string counts as `{}` (providers send it for tools without
//   parameters).
// - Duplicate keys in one JSON object are refused (JSON.parse would silently keep the last), and
//   so are numbers JSON.parse cannot keep exactly: out of range (1e400 → Infinity) or an integer
//   beyond 2^53 written without a fraction or exponent, and arguments nested deeper than
//   MAX_ARGUMENT_DEPTH (SPEC §9: an answer nests at least 128 levels; the bridge's JSON and type
//   checks recurse once per level, in the program's own thread).

import type { ErrorObject } from "ajv";
import { MAX_ARGUMENT_DEPTH } from "../defaults.js";
import { collectLargeGarbage } from "../large-garbage.js";
import { TOOL_VALIDATORS } from "./tool-validators.js";
import type { ToolName } from "./tools.js";

const quote = (value: unknown) => JSON.stringify(value);
const quoteList = (items: readonly string[]) => items.map(quote).join(", ");

/** Parses a call's arguments string strictly; see the header for what is refused. */
export function parseArguments(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  collectLargeGarbage(text.length); // the answer's body text, now that these arguments are taken from it
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `arguments are not valid JSON (${(err as Error).message}); send one JSON object (NaN and Infinity are not JSON)` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, message: `arguments must be a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` };
  }
  const problem = scanJsonText(text);
  return problem ? { ok: false, message: problem } : { ok: true, value: value as Record<string, unknown> };
}

/** Finds duplicate keys and inexact numbers in text that JSON.parse already accepted. */
function scanJsonText(text: string): string | null {
  const stack: { keys: Set<string> | null; expectKey: boolean }[] = [];
  const number = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return `arguments repeat the key ${quote(key)} in one object; send each key once`;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      number.lastIndex = i;
      const token = number.exec(text)![0];
      const n = Number(token);
      if (!Number.isFinite(n)) return `the number ${token} is out of range for JSON; send it as a string or compute it with code`;
      if (!/[.eE]/.test(token) && !Number.isSafeInteger(n)) {
        return `the integer ${token} is too large to pass exactly (beyond 2^53); send it as a string or compute it with code`;
      }
      i += token.length;
      continue;
    }
    if (c === "{" || c === "[") {
      if (stack.length >= MAX_ARGUMENT_DEPTH) {
        return `arguments nest more than ${MAX_ARGUMENT_DEPTH} levels deep; send a flatter value, or build it with code in the frame`;
      }
      stack.push(c === "{" ? { keys: new Set(), expectKey: true } : { keys: null, expectKey: false });
    } else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
    }
    i += 1;
  }
  return null;
}

function describeSchemaError(error: ErrorObject): string {
  const where = error.instancePath === "" ? "arguments" : `argument ${quote(error.instancePath.slice(1).replaceAll("/", "."))}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${where}: missing required ${quote(params.missingProperty)}`;
    case "additionalProperties": {
      const schema = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const known = Object.keys(schema?.properties ?? {});
      return `${where}: unknown ${quote(params.additionalProperty)}; ${known.length > 0 ? `valid: ${quoteList(known)}` : "this takes no arguments"}`;
    }
    case "enum":
      return `${where} must be one of ${quoteList(params.allowedValues as string[])}`;
    case "pattern":
      return `${where} must be an object handle like "object-3"`;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}

/** The tool's schema's verdict on parsed arguments: null, or every problem in one message. */
export function checkArguments(name: ToolName, args: Record<string, unknown>): string | null {
  const validate = TOOL_VALIDATORS[name];
  if (validate(args)) return null;
  return (validate.errors ?? []).map(describeSchemaError).join("; ");
}
