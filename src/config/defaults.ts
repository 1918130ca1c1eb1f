// Every configuration default and bound of SPEC §7 in one place; schema.ts and load-config.ts
// read them from here so a changed default changes everywhere at once.

import { PERMISSIONS, type Permission } from "./types.js";

export const CONFIG_FILE_NAME = "aiython.toml";
export const CONFIG_VERSION = 3;
export const DEFAULT_PROFILE = "default";
/** Written by `aiython setup --set-key`, relative to the project root. */
export const CREDENTIALS_FILE = ".aiython/credentials.env";

export const CONFIG_DEFAULTS = {
  prompt: "",
  timeoutSeconds: 120,
  maxRounds: 16,
  contextValues: true,
  permissions: PERMISSIONS as readonly Permission[],
  journal: true,
  maxConcurrency: 8,
} as const;

export const CONFIG_BOUNDS = {
  maxRounds: { min: 1, max: 100 },
  maxConcurrency: { min: 1, max: 64 },
} as const;

/** Environment variables of the environment-only form (no aiython.toml found). */
export const ENV_MODEL = "AIYTHON_MODEL";
export const ENV_OPENAI_BASE_URL = "OPENAI_BASE_URL";
export const ENV_OPENAI_API_KEY = "OPENAI_API_KEY";
