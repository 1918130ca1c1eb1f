// `[capabilities.NAME]` tables resolved to routes (SPEC §10). Each table takes the chat model's
// forms — a "provider/model" id, a route table {model, api_base, api_key_env}, or a list of those
// (fallbacks after a 429) — with the same provider prefixes and key lookup (providers.ts). The
// table's own api_base / api_key_env qualify its string routes and route tables lacking them; a
// capability never inherits the chat model's api_base, since its server is usually another one.
// A profile's table for a capability replaces the top level's table for that capability only.

import { buildRoute, checkApiBase } from "./providers.js";
import type { CredentialLookup } from "./credentials.js";
import type { CapabilityTable, RouteSpec } from "./schema.js";
import type { CapabilityPrice, CapabilitySettings } from "./types.js";

export interface CapabilityContext {
  configName: string;
  credentials: CredentialLookup;
  envFile: string | null;
}

/** Tables of one layer, keyed by capability name, with the dotted prefix they were written under. */
export interface CapabilityLayer {
  tables: Record<string, CapabilityTable> | undefined;
  /** "" for the top level, "profiles.NAME." for a profile. */
  prefix: string;
}

export function resolveCapabilities(top: CapabilityLayer, own: CapabilityLayer | null, ctx: CapabilityContext): Record<string, CapabilitySettings> {
  const chosen = new Map<string, { table: CapabilityTable; at: string }>();
  for (const layer of [top, own]) {
    if (!layer?.tables) continue;
    for (const [name, table] of Object.entries(layer.tables)) chosen.set(name, { table, at: `${layer.prefix}capabilities.${name}` });
  }
  const resolved: Record<string, CapabilitySettings> = {};
  for (const [name, { table, at }] of chosen) resolved[name] = resolveOne(name, table, at, ctx);
  return resolved;
}

function resolveOne(name: string, table: CapabilityTable, at: string, ctx: CapabilityContext): CapabilitySettings {
  const specs: RouteSpec[] = Array.isArray(table.model) ? table.model : [table.model];
  const routes = specs.map((spec, i) => {
    const where = Array.isArray(table.model) ? `${at}.model[${i}]` : `${at}.model`;
    const route = typeof spec === "string" ? { model: spec } : spec;
    return buildRoute(
      {
        id: route.model,
        apiBase: route.api_base ?? table.api_base,
        apiKeyEnv: route.api_key_env ?? table.api_key_env,
        where: `${ctx.configName}: ${where}`,
        baseSetting: `${at}.api_base`,
        envFile: ctx.envFile,
      },
      ctx.credentials,
    );
  });
  return { name, routes, price: priceOf(table.price) };
}

function priceOf(price: CapabilityTable["price"]): CapabilityPrice | null {
  if (price === undefined) return null;
  return { input: price.input ?? null, output: price.output ?? null, perCall: price.per_call ?? null };
}

/** Every api_base written in capability tables, checked where it is written (never echoed). */
export function checkCapabilityBases(tables: Record<string, CapabilityTable> | undefined, prefix: string, configName: string): void {
  for (const [name, table] of Object.entries(tables ?? {})) {
    const at = `${prefix}capabilities.${name}`;
    if (table.api_base !== undefined) checkApiBase(table.api_base, `${configName}: ${at}.api_base`);
    const specs = Array.isArray(table.model) ? table.model : [table.model];
    specs.forEach((spec, i) => {
      if (typeof spec === "string" || spec.api_base === undefined) return;
      const where = Array.isArray(table.model) ? `${at}.model[${i}].api_base` : `${at}.model.api_base`;
      checkApiBase(spec.api_base, `${configName}: ${where}`);
    });
  }
}
