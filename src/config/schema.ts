// The JSON Schema of aiython.toml, version 3 (SPEC §7). Strict: every table closes with
// `additionalProperties: false`, `capabilities` included: one table per routed capability of
// SPEC §10, each with the chat model's route forms and an optional price. Semantic checks a schema
// cannot express well (credentials inside api_base, the reserved profile name, env_file outside
// the project) live in load-config.ts.

import { CONFIG_BOUNDS, CONFIG_VERSION, RECOVERY_NOTICE_MODES, TYPE_CONTRACTS_MODES } from "../defaults.js";
import { ROUTED_CAPABILITIES } from "../host-tool-defaults.js";
import { PERMISSIONS } from "./types.js";

/** Matches a POSIX-style environment variable name; a pasted key (`sk-...`) fails it. */
export const ENV_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";
export const PROFILE_NAME_PATTERN = "^[A-Za-z0-9_-]+$";

const modelId = { type: "string", minLength: 1 } as const;
const apiBase = { type: "string", pattern: "^https?://[^/]" } as const;
const envName = { type: "string", pattern: ENV_NAME_PATTERN } as const;

/**
 * The route table, the `model` key, a profile, the capability tables, price, budget and
 * rate_limit are definitions that the schema refers to, so each is compiled once (as a function of
 * its own, CONFIG_AJV_OPTIONS.inlineRefs) rather than copied wherever it occurs: inlined at the top
 * level and in every profile, the nine capability tables alone made the built validator 500 KB,
 * which a configured start-up read and compiled (~20 ms) before the program could run (SPEC §12).
 */
const ref = (name: string) => ({ $ref: `#/definitions/${name}` }) as const;

const usd = { type: "number", minimum: 0 } as const;

/** The price of requests sent through a Batch API (SPEC §14); each one half of the live price unless set. */
const batchPrice = {
  type: "object",
  additionalProperties: false,
  properties: { input: usd, output: usd, cached_input: usd },
} as const;

/** USD per million tokens of one chat route (SPEC §13); cached input defaults to the input price. */
const price = {
  type: "object",
  additionalProperties: false,
  required: ["input", "output"],
  properties: { input: usd, output: usd, cached_input: usd, batch: batchPrice },
} as const;

/** `[batch]` (SPEC §14): batch offload of the run's model requests. */
const batch = {
  type: "object",
  additionalProperties: false,
  properties: {
    enabled: { type: "boolean" },
    window: { type: "number", minimum: 0 },
    poll: { type: "number", exclusiveMinimum: 0 },
    max_requests: { type: "integer", minimum: CONFIG_BOUNDS.batchMaxRequests.min, maximum: CONFIG_BOUNDS.batchMaxRequests.max },
  },
} as const;

/** Per-run limits (SPEC §13). */
const budget = {
  type: "object",
  additionalProperties: false,
  properties: {
    model_calls: { type: "integer", minimum: 0 },
    tokens: { type: "integer", minimum: 0 },
    cost: { type: "number", minimum: 0 },
  },
} as const;

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

/** `[capabilities.NAME]` (SPEC §10): routes as for the chat model; price in USD (tokens per million). */
const capabilityTable = {
  type: "object",
  additionalProperties: false,
  required: ["model"],
  properties: {
    model: ref("model"),
    api_base: apiBase,
    api_key_env: envName,
    price: { type: "object", additionalProperties: false, properties: { input: usd, output: usd, per_call: usd } },
  },
} as const;

const capabilities = {
  type: "object",
  additionalProperties: false,
  properties: Object.fromEntries(ROUTED_CAPABILITIES.map((name) => [name, ref("capability")])),
} as const;

/** Keys allowed both at the top level and inside `profiles.NAME`. */
const settings = {
  model: ref("model"),
  api_base: apiBase,
  api_key_env: envName,
  env_file: { type: "string", minLength: 1 },
  prompt: { type: "string" },
  timeout: { type: "number", exclusiveMinimum: 0 },
  tool_timeout: { type: "number", exclusiveMinimum: 0 },
  max_response_mb: { type: "number", exclusiveMinimum: 0 },
  max_rounds: { type: "integer", minimum: CONFIG_BOUNDS.maxRounds.min, maximum: CONFIG_BOUNDS.maxRounds.max },
  context_values: { type: "boolean" },
  recovery_notice: { type: "string", enum: [...RECOVERY_NOTICE_MODES] },
  permissions: { type: "array", uniqueItems: true, items: { type: "string", enum: [...PERMISSIONS] } },
  capabilities: ref("capabilities"),
  journal: { type: "boolean" },
  price: ref("price"),
  budget: ref("budget"),
  cache: { type: "boolean" },
  type_contracts: { type: "string", enum: [...TYPE_CONTRACTS_MODES] },
  rate_limit: ref("rate_limit"),
  max_concurrency: {
    type: "integer",
    minimum: CONFIG_BOUNDS.maxConcurrency.min,
    maximum: CONFIG_BOUNDS.maxConcurrency.max,
  },
  time_limit: { type: "number", exclusiveMinimum: 0 },
  memory_limit: { type: "integer", minimum: CONFIG_BOUNDS.memoryLimitMb.min },
  batch: ref("batch"),
} as const;

/**
 * How ajv compiles CONFIG_SCHEMA (config-validator.ts, and build.mjs for the built CLI). verbose:
 * errors carry their parent schema, which lists the keys allowed where an unknown one was found.
 * validateSchema: false: the schema is a constant, checked against the meta-schema by the tests.
 * inlineRefs: false: see the definitions above.
 */
export const CONFIG_AJV_OPTIONS = { allErrors: false, verbose: true, strict: true, validateSchema: false, inlineRefs: false } as const;

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
      additionalProperties: ref("profile"),
    },
  },
  definitions: {
    route: {
      type: "object",
      additionalProperties: false,
      required: ["model"],
      properties: { model: modelId, api_base: apiBase, api_key_env: envName, price: ref("price"), rate_limit: ref("rate_limit") },
    },
    model: { anyOf: [modelId, ref("route"), { type: "array", minItems: 1, items: { anyOf: [modelId, ref("route")] } }] },
    profile: { type: "object", additionalProperties: false, properties: settings },
    capabilities,
    capability: capabilityTable,
    price,
    budget,
    rate_limit: rateLimit,
    batch,
  },
} as const;

/** The validated document as plain data. */
export interface PriceTable {
  input: number;
  output: number;
  cached_input?: number;
  batch?: { input?: number; output?: number; cached_input?: number };
}

export interface BatchTable {
  enabled?: boolean;
  window?: number;
  poll?: number;
  max_requests?: number;
}

export interface BudgetTable {
  model_calls?: number;
  tokens?: number;
  cost?: number;
}

export interface RateLimitTable {
  requests_per_minute?: number;
  tokens_per_minute?: number;
}

export type RouteSpec = string | { model: string; api_base?: string; api_key_env?: string; price?: PriceTable; rate_limit?: RateLimitTable };

export interface CapabilityTable {
  model: RouteSpec | RouteSpec[];
  api_base?: string;
  api_key_env?: string;
  price?: { input?: number; output?: number; per_call?: number };
}

export interface SettingsTable {
  model?: RouteSpec | RouteSpec[];
  api_base?: string;
  api_key_env?: string;
  env_file?: string;
  prompt?: string;
  timeout?: number;
  tool_timeout?: number;
  max_response_mb?: number;
  max_rounds?: number;
  context_values?: boolean;
  recovery_notice?: (typeof RECOVERY_NOTICE_MODES)[number];
  permissions?: string[];
  capabilities?: Record<string, CapabilityTable>;
  journal?: boolean;
  price?: PriceTable;
  budget?: BudgetTable;
  cache?: boolean;
  /** SPEC §6: "ai" (annotations checked on AI results) or "all" (on all annotated project code too). */
  type_contracts?: (typeof TYPE_CONTRACTS_MODES)[number];
  rate_limit?: RateLimitTable;
  max_concurrency?: number;
  /** Seconds of the run, time waiting for the model excluded (SPEC §9). */
  time_limit?: number;
  /** MB of address space of the program's process (SPEC §9). */
  memory_limit?: number;
  /** Batch offload (SPEC §14). */
  batch?: BatchTable;
}

export interface ConfigDocument extends SettingsTable {
  version: number;
  profiles?: Record<string, SettingsTable>;
}
