// What configuration looks like to people and tools: `aiython config show` (SPEC §2) and the
// "config" object of `--explain --json` (SPEC §3.4). Built field by field from resolved values —
// never by serialising a route — so a key can never slip in; whether a key is configured and
// where it came from is reported, its value never.

import { displayPath } from "./display-path.js";
import { PERMISSIONS, type ProfileSettings, type ResolvedConfig, type Route } from "./types.js";

/** A route can authenticate as configured: it has a key, or it needs none. */
export function credentialConfigured(route: Route): boolean {
  return route.keySource !== "none" || !route.keyRequired;
}

export function renderConfigShow(config: ResolvedConfig): string {
  const profiles: Record<string, unknown> = {};
  for (const [name, profile] of config.profiles) profiles[name] = showProfile(profile);
  const shown = {
    path: config.path,
    source: config.path !== null ? "file" : config.modelConfigured ? "environment" : "none",
    project_root: config.projectRoot,
    default_profile: config.defaultProfile,
    forced_profile: config.forcedProfile,
    model_configured: config.modelConfigured,
    profiles,
  };
  return JSON.stringify(shown, null, 2);
}

function showRoute(route: Route): Record<string, unknown> {
  return {
    id: route.id,
    provider: route.provider,
    model: route.model,
    api_base: route.apiBase,
    api_key_env: route.apiKeyEnv,
    credential_required: route.keyRequired,
    credential_configured: credentialConfigured(route),
    credential_source: route.keySource,
  };
}

function showCapabilities(profile: ProfileSettings): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [name, capability] of Object.entries(profile.capabilities)) {
    const price = capability.price;
    shown[name] = {
      routes: capability.routes.map(showRoute),
      price: price === null ? null : { input: price.input, output: price.output, per_call: price.perCall },
    };
  }
  return shown;
}

function showProfile(profile: ProfileSettings): Record<string, unknown> {
  return {
    routes: profile.routes.map((route) => ({
      ...showRoute(route),
      price: route.price ? { input: route.price.input, output: route.price.output, cached_input: route.price.cachedInput } : null,
      rate_limit: route.rateLimit ? { requests_per_minute: route.rateLimit.requestsPerMinute ?? null, tokens_per_minute: route.rateLimit.tokensPerMinute ?? null } : null,
    })),
    prompt: profile.prompt,
    timeout: profile.timeoutSeconds,
    tool_timeout: profile.toolTimeoutSeconds,
    max_response_mb: profile.maxResponseMb,
    max_rounds: profile.maxRounds,
    context_values: profile.contextValues,
    recovery_notice: profile.recoveryNotice,
    permissions: PERMISSIONS.filter((p) => profile.permissions.has(p)),
    journal: profile.journal,
    budget: {
      model_calls: profile.budget.modelCalls ?? null,
      tokens: profile.budget.tokens ?? null,
      cost: profile.budget.costUsd ?? null,
    },
    cache: profile.cache,
    type_contracts: profile.typeContracts,
    max_concurrency: profile.maxConcurrency,
    time_limit: profile.timeLimitSeconds,
    memory_limit: profile.memoryLimitMb,
    env_file: profile.envFile,
    capabilities: showCapabilities(profile),
  };
}

/** `cwd` given: `path` is shown relative to it when inside it, as in SPEC §3.4's example. */
export function configSummaryForExplain(
  config: ResolvedConfig,
  options: { cwd?: string } = {},
): {
  path: string | null;
  default_profile: string;
  profiles: Record<string, { model: string; credential_configured: boolean }>;
} {
  const profiles: Record<string, { model: string; credential_configured: boolean }> = {};
  for (const [name, profile] of config.profiles) {
    if (profile.routes.length === 0) continue;
    profiles[name] = {
      model: profile.routes[0].id,
      credential_configured: profile.routes.every(credentialConfigured),
    };
  }
  const shownPath = config.path !== null && options.cwd !== undefined ? displayPath(config.path, options.cwd) : config.path;
  return { path: shownPath, default_profile: config.defaultProfile, profiles };
}
