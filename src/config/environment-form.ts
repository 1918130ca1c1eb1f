// The environment-only form (SPEC §7, no aiython.toml found): `--model` or `AIYTHON_MODEL`
// configures the default profile; every other setting keeps its default.
//
// `OPENAI_BASE_URL` applies to ids without a known prefix (provider "custom", key from
// `OPENAI_API_KEY` when set, none required — a local server usually wants none) and to `openai/`
// ids (OpenAI-compatible proxy); ids of the other known providers keep their own base.

import { CONFIG_DEFAULTS, DEFAULT_PROFILE, ENV_MODEL, ENV_OPENAI_API_KEY, ENV_OPENAI_BASE_URL } from "../defaults.js";
import type { CredentialLookup } from "./credentials.js";
import { buildRoute, checkApiBase, knownProvider } from "./providers.js";
import type { ProfileSettings, Route } from "./types.js";

export function environmentProfile(modelFlag: string | undefined, env: NodeJS.ProcessEnv, credentials: CredentialLookup, cwd: string): ProfileSettings {
  const fromFlag = modelFlag !== undefined && modelFlag.trim() !== "";
  const id = (fromFlag ? modelFlag : env[ENV_MODEL])?.trim() ?? "";
  const routes: Route[] = [];
  if (id !== "") {
    const base = env[ENV_OPENAI_BASE_URL]?.trim() || undefined;
    if (base !== undefined) checkApiBase(base, ENV_OPENAI_BASE_URL);
    const known = knownProvider(id);
    const appliesBase = known === null || known.name === "openai";
    routes.push(
      buildRoute(
        {
          id,
          apiBase: appliesBase ? base : undefined,
          where: fromFlag ? "--model" : ENV_MODEL,
          baseSetting: ENV_OPENAI_BASE_URL,
          envFile: null,
          optionalKeyEnv: ENV_OPENAI_API_KEY,
          baseDir: cwd,
        },
        credentials,
      ),
    );
  }
  return defaultSettings(DEFAULT_PROFILE, routes);
}

export function defaultSettings(name: string, routes: Route[]): ProfileSettings {
  return {
    name,
    routes,
    prompt: CONFIG_DEFAULTS.prompt,
    timeoutSeconds: CONFIG_DEFAULTS.timeoutSeconds,
    toolTimeoutSeconds: CONFIG_DEFAULTS.toolTimeoutSeconds,
    maxResponseMb: CONFIG_DEFAULTS.maxResponseMb,
    maxRounds: CONFIG_DEFAULTS.maxRounds,
    contextValues: CONFIG_DEFAULTS.contextValues,
    recoveryNotice: CONFIG_DEFAULTS.recoveryNotice,
    permissions: new Set(CONFIG_DEFAULTS.permissions),
    journal: CONFIG_DEFAULTS.journal,
    budget: {},
    cache: CONFIG_DEFAULTS.cache,
    typeContracts: CONFIG_DEFAULTS.typeContracts,
    maxConcurrency: CONFIG_DEFAULTS.maxConcurrency,
    timeLimitSeconds: null,
    memoryLimitMb: null,
    batch: { enabled: false, windowSeconds: CONFIG_DEFAULTS.batchWindowSeconds, pollSeconds: CONFIG_DEFAULTS.batchPollSeconds, maxRequests: CONFIG_DEFAULTS.batchMaxRequests },
    envFile: null,
    capabilities: {},
  };
}
