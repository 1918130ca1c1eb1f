// A ModelPort that meters the live client of one profile (SPEC §13): every HTTP request it sends
// is first admitted by the run's budget (refused ones are never sent), and once it has ended it is
// priced by its route and charged to the budget, before the caller's own observer (the
// invocation's counters and trace) sees it. Replayed answers never get here: they cost nothing.

import type { AttemptObserver, ModelAttempt, ModelPort, ModelRequest } from "../model-port.js";
import type { RunBudget, Reservation } from "./budget.js";
import { requestCost, type RoutePrice } from "./cost.js";

/** Route id → its price, or null when it has none. */
export type PriceOf = (route: string) => RoutePrice | null;

export function meteredModel(live: ModelPort, priceOf: PriceOf, budget: RunBudget): ModelPort {
  return {
    complete(request, options) {
      // Object.assign, not a spread: docs/architecture.md, "Memory per block".
      return live.complete(request, Object.assign({}, options, { attempts: meter(request, priceOf, budget, options.attempts) }));
    },
  };
}

function meter(request: ModelRequest, priceOf: PriceOf, budget: RunBudget, inner: AttemptObserver | undefined): AttemptObserver {
  const held = new Map<number, Reservation>();
  let bytes: number | null = null;
  return {
    sending(attempt) {
      if (budget.active) {
        bytes ??= budget.needsEstimate ? estimatedBytes(request) : 0;
        held.set(attempt.attempt, budget.reserve(bytes, priceOf(attempt.route)?.input ?? null));
      }
      inner?.sending?.(attempt);
    },
    sent(attempt) {
      // Object.assign, not a spread: docs/architecture.md, "Memory per block".
      const priced: ModelAttempt = Object.assign({}, attempt, { costUsd: requestCost(priceOf(attempt.route), attempt.usage, attempt.batched) });
      const reservation = held.get(attempt.attempt);
      held.delete(attempt.attempt);
      budget.settle(reservation ?? null, { route: attempt.route, tokens: tokensOf(attempt), costUsd: priced.costUsd ?? null });
      inner?.sent?.(priced);
    },
  };
}

function tokensOf(attempt: ModelAttempt): number {
  const usage = attempt.usage;
  if (!usage) return 0;
  return usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
}

/** The body's size as the client will send it, near enough for an estimate. */
function estimatedBytes(request: ModelRequest): number {
  return Buffer.byteLength(JSON.stringify({ messages: request.messages, tools: request.tools, tool_choice: request.toolChoice }), "utf8");
}
