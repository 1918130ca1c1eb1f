// Schema validation of a parsed aiython.toml (SPEC §7). The validator is loaded on the first call
// only (a file was found), so a start-up without one never loads it; in the built CLI it is ajv
// standalone code generated at build time (config-validator.ts).

import { ConfigError } from "../errors.js";
import type { ConfigDocument } from "./schema.js";
import { formatSchemaError } from "./schema-errors.js";

/** Throws ConfigError naming `displayName` and the dotted key when `doc` breaks the schema. */
export async function validateDocument(displayName: string, doc: unknown): Promise<ConfigDocument> {
  const { validateConfig } = await import("./config-validator.js");
  if (!validateConfig(doc)) throw new ConfigError(formatSchemaError(displayName, doc, validateConfig.errors ?? []));
  return doc as ConfigDocument;
}
