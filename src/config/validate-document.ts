// Schema validation of a parsed aiython.toml with ajv, loaded and compiled lazily on the first
// call (SPEC §7: only when a file was found, so a start-up without one never pays for ajv). The
// compiled validator is kept for the life of the process.

import type { ValidateFunction } from "ajv";
import { ConfigError } from "../errors.js";
import { CONFIG_SCHEMA, type ConfigDocument } from "./schema.js";
import { formatSchemaError } from "./schema-errors.js";

/**
 * verbose: errors carry their parent schema, which lists the keys allowed where an unknown one was
 * found. validateSchema: false skips compiling the draft-07 meta-schema on every start-up (a large
 * share of compile time); the schema is a constant, checked against the meta-schema by the tests.
 */
export const AJV_OPTIONS = { allErrors: false, verbose: true, strict: true, validateSchema: false } as const;

let compiled: ValidateFunction | undefined;

async function validator(): Promise<ValidateFunction> {
  if (compiled) return compiled;
  // ajv is CommonJS: Node's loader offers its exports as named exports, but esbuild's split chunks
  // (build.mjs) offer only `default` (module.exports); `module.exports.Ajv` exists under both.
  const { Ajv } = (await import("ajv")).default;
  compiled = new Ajv(AJV_OPTIONS).compile(CONFIG_SCHEMA);
  return compiled;
}

/** Throws ConfigError naming `displayName` and the dotted key when `doc` breaks the schema. */
export async function validateDocument(displayName: string, doc: unknown): Promise<ConfigDocument> {
  const validate = await validator();
  if (!validate(doc)) throw new ConfigError(formatSchemaError(displayName, doc, validate.errors ?? []));
  return doc as ConfigDocument;
}
