// The shapes of resolved configuration (SPEC §7): what the rest of aiython reads after
// load-config.ts has discovered, parsed, validated and merged aiython.toml (or the environment).
// Nothing here does I/O.

import { PERMISSIONS } from "../defaults.js";

export { PERMISSIONS };

export type Permission = (typeof PERMISSIONS)[number];

export type ProviderName = "openai" | "openrouter" | "gemini" | "ollama" | "custom" | "script";

/** Where a route's key was found. `credentials_file` is `.aiython/credentials.env` (written by `aiython setup --set-key`). */
export type CredentialSource = "environment" | "env_file" | "credentials_file" | "none";

export interface ConfigInputs {
  /** The program file (null for -c / stdin / -m): discovery starts at its folder, else at cwd. */
  scriptPath: string | null;
  cwd: string;
  /** --config FILE: exactly this file, no discovery. */
  configFile?: string;
  /** --profile NAME. */
  profile?: string;
  /** --force-profile NAME (exclusive with --profile). */
  forceProfile?: string;
  /** --model ID: overrides the model of the selected profile. */
  model?: string;
  env: NodeJS.ProcessEnv;
}

export interface Route {
  /** The id as configured, e.g. "openai/gpt-4.1-mini" or "llama3" (custom). */
  id: string;
  provider: ProviderName;
  /** The model name sent to the provider: the id without a known provider prefix. */
  model: string;
  apiBase: string;
  /** Name of the environment variable the key is read from, or null when none applies. */
  apiKeyEnv: string | null;
  /** The key itself. Non-enumerable on routes built by this module: JSON.stringify and util.inspect skip it. Never printed. */
  apiKey: string | null;
  /** True when calls without a key are bound to fail (hosted providers at their default base, or an explicit api_key_env). */
  keyRequired: boolean;
  keySource: CredentialSource;
  /** USD per million tokens (SPEC §13), or null: the cost of its requests is unknown. */
  price: Price | null;
  /** `rate_limit` (SPEC §7): requests and tokens per minute on this route, for the whole run; null: none. */
  rateLimit: RateLimit | null;
}

export interface RateLimit {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

export interface Price {
  input: number;
  output: number;
  /** Cached input tokens (`usage.prompt_tokens_details.cached_tokens`); the input price unless set. */
  cachedInput: number;
  /** Requests answered through a Batch API (SPEC §14): `price.batch`, each half of the live price unless set. */
  batch: { input: number; output: number; cachedInput: number };
}

/** `[batch]` (SPEC §14). */
export interface BatchSettings {
  enabled: boolean;
  windowSeconds: number;
  pollSeconds: number;
  maxRequests: number;
}

/** Per-run limits of SPEC §13; an absent field is no limit. */
export interface BudgetLimits {
  modelCalls?: number;
  tokens?: number;
  costUsd?: number;
}

export interface ProfileSettings {
  name: string;
  /** Primary route first, then fallbacks tried after a 429. Empty: this profile has no model. */
  routes: Route[];
  prompt: string;
  timeoutSeconds: number;
  /** `tool_timeout` (SPEC §9): seconds one tool call may run before it is interrupted. */
  toolTimeoutSeconds: number;
  /** `max_response_mb`: megabytes of one model answer's body. */
  maxResponseMb: number;
  maxRounds: number;
  contextValues: boolean;
  /** `recovery_notice` (SPEC §4.2): how recovery decisions are said on stderr. */
  recoveryNotice: "each" | "summary" | "off";
  permissions: Set<Permission>;
  journal: boolean;
  /** `budget` (SPEC §13): the limits of a run that selects this profile. */
  budget: BudgetLimits;
  /** The preparation cache (SPEC §4.1), `cache`; AIYTHON_NO_CACHE=1 turns it off for the run. */
  cache: boolean;
  /** `type_contracts` (SPEC §6): "all" checks annotated assignments, parameters and returns of project code too. */
  typeContracts: "ai" | "all";
  maxConcurrency: number;
  /** `time_limit` (SPEC §9): seconds of the run, model waits excluded; null: none. */
  timeLimitSeconds: number | null;
  /** `memory_limit` (SPEC §9): MB of the program's address space; null: none. */
  memoryLimitMb: number | null;
  /** `[batch]` (SPEC §14): the run's profile's settings apply to the whole run. */
  batch: BatchSettings;
  /** Absolute path of the dotenv file this profile reads keys from, or null. */
  envFile: string | null;
  /** Capability routes (SPEC §10) by capability name, merged per name from the top level and the profile. */
  capabilities: Record<string, CapabilitySettings>;
}

/** USD: `input` / `output` per million tokens, `per_call` per request (SPEC §10, §13). */
export interface CapabilityPrice {
  input: number | null;
  output: number | null;
  perCall: number | null;
}

/** One `[capabilities.NAME]` table, resolved. */
export interface CapabilitySettings {
  name: string;
  /** Primary route first, then fallbacks tried after a 429; never empty. */
  routes: Route[];
  price: CapabilityPrice | null;
}

export interface ResolvedConfig {
  /** The aiython.toml used, or null (environment-only form). */
  path: string | null;
  /** Folder of aiython.toml, else the script's folder (or cwd). */
  projectRoot: string;
  /** "default" or the profile picked by --profile / --force-profile. */
  defaultProfile: string;
  forcedProfile: string | null;
  /** Always holds "default"; named profiles come from [profiles.NAME]. */
  profiles: Map<string, ProfileSettings>;
  /** False: no model anywhere (recovery off, blocks raise AIError when reached). */
  modelConfigured: boolean;
}
