// Schema validation of a parsed aiython.toml (SPEC §7). The validator is loaded on the first call
// only (a file was found), so a start-up without one never loads it; in the built CLI it is ajv
// standalone code generated at build time (config-validator.ts). The messages for a document
// that fails (schema-errors.ts) are loaded only then.

import { ConfigError } from "../errors.js";
import type { ConfigDocument } from "./schema.js";

/** Throws ConfigError naming `displayName` and the dotted key when `doc` breaks the schema. */
export async function validateDocument(displayName: string, doc: unknown): Promise<ConfigDocument> {
  const { validateConfig } = await import("./config-validator.js");
  if (validateConfig(doc)) return doc as ConfigDocument;
  const { formatSchemaError } = await import("./schema-errors.js");
  throw new ConfigError(formatSchemaError(displayName, doc, validateConfig.errors ?? []));
}
