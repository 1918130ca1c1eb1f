// What model requests cost (SPEC §13): a route's price in USD per million tokens, the cost of one
// request from the usage its provider reported, and how costs read in `--stats` and `aiython
// runs`. Cached input tokens (`usage.prompt_tokens_details.cached_tokens`) are part of the prompt
// tokens and are priced at `cached_input` instead of `input`. A request that got no usage back (a
// failed one) cost nothing; a route without a price makes the cost unknown, never zero.

import type { TokenUsage } from "../model-port.js";

/** USD per million tokens; the shape of config's Price (run/ passes it in). */
export interface RoutePrice {
  input: number;
  output: number;
  cachedInput: number;
  /** Through a Batch API (SPEC §14). */
  batch?: { input: number; output: number; cachedInput: number };
}

const PER = 1_000_000;

/** USD of one request with this usage; null when the route has no price. A batched request costs the batch price (half of the live one unless set). */
export function requestCost(given: RoutePrice | null, usage: TokenUsage | undefined, batched = false): number | null {
  if (given === null) return null;
  const price = batched ? (given.batch ?? { input: given.input / 2, output: given.output / 2, cachedInput: given.cachedInput / 2 }) : given;
  if (!usage) return 0;
  const prompt = usage.prompt_tokens ?? 0;
  const cached = Math.min(usage.cached_tokens ?? 0, prompt);
  const output = usage.completion_tokens ?? 0;
  return ((prompt - cached) * price.input + cached * price.cachedInput + output * price.output) / PER;
}

/** "$0.0123", "$0.000042", "$0": four decimals from a cent up, six below. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  return `$${usd >= 0.01 ? usd.toFixed(4) : usd.toFixed(6)}`;
}

/** The cost as `--stats` words it: "$0.0123", or "cost unknown (no price for ROUTE, ROUTE)". */
export function costLabel(costUsd: number | null, unpricedRoutes: readonly string[]): string {
  if (costUsd !== null) return formatUsd(costUsd);
  return unpricedRoutes.length > 0 ? `cost unknown (no price for ${unpricedRoutes.join(", ")})` : "cost unknown";
}

/** The short form of a table cell: "$0.0123" or "unknown". */
export function costCell(costUsd: number | null): string {
  return costUsd === null ? "unknown" : formatUsd(costUsd);
}

/** Sums costs: unknown as soon as one is; unpriced routes merged in order. */
export function totalCost(items: readonly { cost_usd: number | null; unpriced_routes: readonly string[] }[]): { cost_usd: number | null; unpriced_routes: string[] } {
  let cost: number | null = 0;
  const unpriced: string[] = [];
  for (const item of items) {
    cost = cost === null || item.cost_usd === null ? null : cost + item.cost_usd;
    for (const route of item.unpriced_routes) if (!unpriced.includes(route)) unpriced.push(route);
  }
  return { cost_usd: cost, unpriced_routes: unpriced };
}
