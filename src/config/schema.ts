// The JSON Schema of aiython.toml, version 3 (SPEC §7). Strict: every table closes with
// `additionalProperties: false`, except `capabilities`, whose contents SPEC §10 defines and which
// is only required to be a table for now. Semantic checks a schema cannot express well (credentials
// inside api_base, the reserved profile name, env_file outside the project) live in load-config.ts.

import { CONFIG_BOUNDS, CONFIG_VERSION } from "../defaults.js";
import { PERMISSIONS } from "./types.js";

/** Matches a POSIX-style environment variable name; a pasted key (`sk-...`) fails it. */
export const ENV_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";
export const PROFILE_NAME_PATTERN = "^[A-Za-z0-9_-]+$";

const modelId = { type: "string", minLength: 1 } as const;
const apiBase = { type: "string", pattern: "^https?://[^/]" } as const;
const envName = { type: "string", pattern: ENV_NAME_PATTERN } as const;

/** Per route, for the whole run (SPEC §7, §8): at least one of the two. */
const rateLimit = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    requests_per_minute: { type: "integer", minimum: 1 },
    tokens_per_minute: { type: "integer", minimum: 1 },
  },
} as const;

const routeTable = {
  type: "object",
  additionalProperties: false,
  required: ["model"],
  properties: { model: modelId, api_base: apiBase, api_key_env: envName, rate_limit: rateLimit },
} as const;

/** Keys allowed both at the top level and inside `profiles.NAME`. */
const settings = {
  model: {
    anyOf: [
      modelId,
      routeTable,
      { type: "array", minItems: 1, items: { anyOf: [modelId, routeTable] } },
    ],
  },
  api_base: apiBase,
  api_key_env: envName,
  env_file: { type: "string", minLength: 1 },
  prompt: { type: "string" },
  timeout: { type: "number", exclusiveMinimum: 0 },
  max_rounds: { type: "integer", minimum: CONFIG_BOUNDS.maxRounds.min, maximum: CONFIG_BOUNDS.maxRounds.max },
  context_values: { type: "boolean" },
  permissions: { type: "array", uniqueItems: true, items: { type: "string", enum: [...PERMISSIONS] } },
  capabilities: { type: "object" },
  journal: { type: "boolean" },
  rate_limit: rateLimit,
  max_concurrency: {
    type: "integer",
    minimum: CONFIG_BOUNDS.maxConcurrency.min,
    maximum: CONFIG_BOUNDS.maxConcurrency.max,
  },
} as const;


export const CONFIG_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["version"],
  properties: {
    version: { type: "integer", const: CONFIG_VERSION },
    ...settings,
    profiles: {
      type: "object",
      propertyNames: { pattern: PROFILE_NAME_PATTERN },
      additionalProperties: { type: "object", additionalProperties: false, properties: settings },
    },
  },
} as const;

/** The validated document as plain data. */
export interface RateLimitTable {
  requests_per_minute?: number;
  tokens_per_minute?: number;
}

export type RouteSpec = string | { model: string; api_base?: string; api_key_env?: string; rate_limit?: RateLimitTable };

export interface SettingsTable {
  model?: RouteSpec | RouteSpec[];
  api_base?: string;
  api_key_env?: string;
  env_file?: string;
  prompt?: string;
  timeout?: number;
  max_rounds?: number;
  context_values?: boolean;
  permissions?: string[];
  capabilities?: Record<string, unknown>;
  journal?: boolean;
  rate_limit?: RateLimitTable;
  max_concurrency?: number;
}

export interface ConfigDocument extends SettingsTable {
  version: number;
  profiles?: Record<string, SettingsTable>;
}
