// From a validated aiython.toml document to resolved profiles (SPEC §7). The top level is the
// `default` profile; `profiles.NAME` overrides it key by key and inherits every key it does not
// set — `api_base` and `api_key_env` too, so a profile that sets only `model` stays on the
// top-level server with the top-level key. `price` and `rate_limit` belong to their layer's
// routes: a profile that sets its own `model` inherits neither from the top level, and a route
// table's own `rate_limit` wins. `capabilities` merge per capability name
// (capability-routes.ts); every other key replaces the inherited value.
// Layer-level `api_base` / `api_key_env` apply to string routes and to route tables lacking them.
// A named `env_file` must exist and be readable.

import { ConfigError } from "../errors.js";
import { CONFIG_DEFAULTS, DEFAULT_PROFILE } from "../defaults.js";
import { checkCapabilityBases, resolveCapabilities } from "./capability-routes.js";
import { resolveEnvFile, type CredentialLookup } from "./credentials.js";
import { buildRoute, checkApiBase, knownProvider } from "./providers.js";
import type { BatchTable, BudgetTable, ConfigDocument, PriceTable, RateLimitTable, RouteSpec, SettingsTable } from "./schema.js";
import type { BatchSettings, BudgetLimits, Permission, Price, ProfileSettings, RateLimit, Route } from "./types.js";

export interface DocumentContext {
  configName: string;
  projectRoot: string;
  credentials: CredentialLookup;
  /** `--model ID` and the profile it replaces the model of. */
  modelOverride: { id: string; profile: string } | null;
}

export function profilesFromDocument(doc: ConfigDocument, ctx: DocumentContext): Map<string, ProfileSettings> {
  const named = doc.profiles ?? {};
  if (Object.hasOwn(named, DEFAULT_PROFILE)) {
    throw new ConfigError(
      `${ctx.configName}: profiles.${DEFAULT_PROFILE}: "${DEFAULT_PROFILE}" is reserved for the top-level settings; ` +
        `move these keys to the top level or choose another profile name`,
    );
  }
  checkApiBases(doc, "", ctx.configName);
  for (const [name, table] of Object.entries(named)) checkApiBases(table, `profiles.${name}.`, ctx.configName);

  const profiles = new Map<string, ProfileSettings>();
  profiles.set(DEFAULT_PROFILE, resolveProfile(DEFAULT_PROFILE, doc, null, ctx));
  for (const [name, table] of Object.entries(named)) profiles.set(name, resolveProfile(name, doc, table, ctx));
  return profiles;
}

function resolveProfile(name: string, top: SettingsTable, own: SettingsTable | null, ctx: DocumentContext): ProfileSettings {
  const pick = <K extends keyof SettingsTable>(key: K): { value: SettingsTable[K]; at: string } | null => {
    if (own && own[key] !== undefined) return { value: own[key], at: `profiles.${name}.${key}` };
    if (top[key] !== undefined) return { value: top[key], at: key };
    return null;
  };
  const layerBase = pick("api_base")?.value;
  const layerKeyEnv = pick("api_key_env")?.value;
  // `price` and `rate_limit` qualify `model`: they belong to that layer's routes.
  const ownsModel = own?.model !== undefined;
  const layerPrice = ownsModel ? own?.price : (own?.price ?? top.price);
  const layerRateLimit = ownsModel ? own?.rate_limit : (own?.rate_limit ?? top.rate_limit);

  const envFileSetting = pick("env_file");
  const envFile = envFileSetting ? resolveEnvFile(envFileSetting.value as string, ctx.projectRoot, envFileSetting.at, ctx.configName) : null;
  if (envFileSetting && envFile) ctx.credentials.requireFile(envFile, `${ctx.configName}: ${envFileSetting.at}`);

  let routes: Route[];
  if (ctx.modelOverride && ctx.modelOverride.profile === name) {
    // `--model` with a known prefix goes to that provider; a bare id stays on this profile's server.
    const prefixed = knownProvider(ctx.modelOverride.id) !== null;
    routes = [
      limitedBy(
        buildRoute(
          {
            id: ctx.modelOverride.id,
            apiBase: prefixed ? undefined : layerBase,
            apiKeyEnv: prefixed ? undefined : layerKeyEnv,
            where: "--model",
            baseSetting: `api_base in ${ctx.configName}`,
            envFile,
            baseDir: ctx.projectRoot,
          },
          ctx.credentials,
        ),
        layerRateLimit,
      ),
    ];
  } else {
    const model = pick("model");
    const specs: RouteSpec[] = model === null ? [] : Array.isArray(model.value) ? model.value : [model.value as RouteSpec];
    routes = specs.map((spec, i) => {
      const at = model && Array.isArray(model.value) ? `${model.at}[${i}]` : (model?.at ?? "model");
      const table = typeof spec === "string" ? { model: spec } : spec;
      return limitedBy(
        buildRoute(
          {
            id: table.model,
            apiBase: table.api_base ?? layerBase,
            apiKeyEnv: table.api_key_env ?? layerKeyEnv,
            where: `${ctx.configName}: ${at}`,
            baseSetting: "api_base",
            envFile,
            baseDir: ctx.projectRoot,
            price: priceOf(table.price ?? layerPrice),
          },
          ctx.credentials,
        ),
        table.rate_limit ?? layerRateLimit,
      );
    });
  }

  return {
    name,
    routes,
    prompt: pick("prompt")?.value ?? CONFIG_DEFAULTS.prompt,
    timeoutSeconds: pick("timeout")?.value ?? CONFIG_DEFAULTS.timeoutSeconds,
    toolTimeoutSeconds: pick("tool_timeout")?.value ?? CONFIG_DEFAULTS.toolTimeoutSeconds,
    maxResponseMb: pick("max_response_mb")?.value ?? CONFIG_DEFAULTS.maxResponseMb,
    maxRounds: pick("max_rounds")?.value ?? CONFIG_DEFAULTS.maxRounds,
    contextValues: pick("context_values")?.value ?? CONFIG_DEFAULTS.contextValues,
    recoveryNotice: pick("recovery_notice")?.value ?? CONFIG_DEFAULTS.recoveryNotice,
    permissions: new Set((pick("permissions")?.value as Permission[] | undefined) ?? CONFIG_DEFAULTS.permissions),
    journal: pick("journal")?.value ?? CONFIG_DEFAULTS.journal,
    budget: budgetOf(pick("budget")?.value),
    cache: pick("cache")?.value ?? CONFIG_DEFAULTS.cache,
    typeContracts: pick("type_contracts")?.value ?? CONFIG_DEFAULTS.typeContracts,
    maxConcurrency: pick("max_concurrency")?.value ?? CONFIG_DEFAULTS.maxConcurrency,
    timeLimitSeconds: pick("time_limit")?.value ?? null,
    memoryLimitMb: pick("memory_limit")?.value ?? null,
    batch: batchOf(pick("batch")?.value),
    envFile,
    capabilities: resolveCapabilities({ tables: top.capabilities, prefix: "" }, own ? { tables: own.capabilities, prefix: `profiles.${name}.` } : null, {
      configName: ctx.configName,
      credentials: ctx.credentials,
      envFile,
    }),
  };
}

function priceOf(table: PriceTable | undefined): Price | null {
  if (table === undefined) return null;
  const cachedInput = table.cached_input ?? table.input;
  const batch = table.batch ?? {};
  return {
    input: table.input,
    output: table.output,
    cachedInput,
    batch: { input: batch.input ?? table.input / 2, output: batch.output ?? table.output / 2, cachedInput: batch.cached_input ?? batch.input ?? cachedInput / 2 },
  };
}

function batchOf(table: BatchTable | undefined): BatchSettings {
  return {
    enabled: table?.enabled ?? false,
    windowSeconds: table?.window ?? CONFIG_DEFAULTS.batchWindowSeconds,
    pollSeconds: table?.poll ?? CONFIG_DEFAULTS.batchPollSeconds,
    maxRequests: table?.max_requests ?? CONFIG_DEFAULTS.batchMaxRequests,
  };
}

function budgetOf(table: BudgetTable | undefined): BudgetLimits {
  const limits: BudgetLimits = {};
  if (table?.model_calls !== undefined) limits.modelCalls = table.model_calls;
  if (table?.tokens !== undefined) limits.tokens = table.tokens;
  if (table?.cost !== undefined) limits.costUsd = table.cost;
  return limits;
}

function limitedBy(route: Route, table: RateLimitTable | undefined): Route {
  if (table === undefined) return route;
  const limit: RateLimit = {};
  if (table.requests_per_minute !== undefined) limit.requestsPerMinute = table.requests_per_minute;
  if (table.tokens_per_minute !== undefined) limit.tokensPerMinute = table.tokens_per_minute;
  route.rateLimit = limit;
  return route;
}

/** Every api_base written in a table (its own and its route tables'), checked where it is written. */
function checkApiBases(table: SettingsTable, prefix: string, configName: string): void {
  if (table.api_base !== undefined) checkApiBase(table.api_base, `${configName}: ${prefix}api_base`);
  checkCapabilityBases(table.capabilities, prefix, configName);
  const model = table.model;
  const specs = model === undefined ? [] : Array.isArray(model) ? model : [model];
  specs.forEach((spec, i) => {
    if (typeof spec === "string" || spec.api_base === undefined) return;
    const at = Array.isArray(model) ? `${prefix}model[${i}].api_base` : `${prefix}model.api_base`;
    checkApiBase(spec.api_base, `${configName}: ${at}`);
  });
}
