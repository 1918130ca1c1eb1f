// The shapes of resolved configuration (SPEC §7): what the rest of aiython reads after
// load-config.ts has discovered, parsed, validated and merged aiython.toml (or the environment).
// Nothing here does I/O.

import { PERMISSIONS } from "../defaults.js";

export { PERMISSIONS };

export type Permission = (typeof PERMISSIONS)[number];

export type ProviderName = "openai" | "openrouter" | "gemini" | "ollama" | "custom";

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
  /** `rate_limit` (SPEC §7): requests and tokens per minute on this route, for the whole run; null: none. */
  rateLimit: RateLimit | null;
}

export interface RateLimit {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

export interface ProfileSettings {
  name: string;
  /** Primary route first, then fallbacks tried after a 429. Empty: this profile has no model. */
  routes: Route[];
  prompt: string;
  timeoutSeconds: number;
  maxRounds: number;
  contextValues: boolean;
  permissions: Set<Permission>;
  journal: boolean;
  maxConcurrency: number;
  /** Absolute path of the dotenv file this profile reads keys from, or null. */
  envFile: string | null;
  /** Capability routes (SPEC §10), merged per capability name; validated only as tables for now. */
  capabilities: Record<string, unknown>;
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
