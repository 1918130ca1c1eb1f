// Schema validation of a parsed aiython.toml with ajv, loaded and compiled lazily on the first
// call (SPEC §7: only when a file was found, so a start-up without one never pays for ajv). The
// compiled validator is kept for the life of the process.

import type { ValidateFunction } from "ajv";
import { ConfigError } from "../../errors.js";
import { CONFIG_SCHEMA, type ConfigDocument } from "./schema.js";
import { formatSchemaError } from "./schema-errors.js";

let compiled: ValidateFunction | undefined;

async function validator(): Promise<ValidateFunction> {
  if (compiled) return compiled;
  const { Ajv } = await import("ajv");
  // verbose: errors carry their parent schema, which lists the keys allowed where an unknown one was found.
  compiled = new Ajv({ allErrors: false, verbose: true, strict: true }).compile(CONFIG_SCHEMA);
  return compiled;
}

/** Throws ConfigError naming `displayName` and the dotted key when `doc` breaks the schema. */
export async function validateDocument(displayName: string, doc: unknown): Promise<ConfigDocument> {
  const validate = await validator();
  if (!validate(doc)) throw new ConfigError(formatSchemaError(displayName, doc, validate.errors ?? []));
  return doc as ConfigDocument;
}
