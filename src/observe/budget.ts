// The run's budgets (SPEC §13): model calls, tokens and USD, counted over every HTTP request the
// run sends — retries, repairs and recovery consultations, from every thread (and every process
// of the run: they all ask the one host, whose invocations all pass through this one counter).
//
// A request is checked before it is sent and refused when it would exceed a limit: a call is one
// request; its tokens and cost are not known before the answer, so the check adds an estimate of
// its input (its body at BUDGET_BYTES_PER_TOKEN bytes a token, at the route's input price) to what
// was spent and what requests in flight have reserved. The answer's reported usage then replaces
// the estimate. A refusal throws ModelCallError("budget"): the block raises AIBudgetError.

import { BUDGET_BYTES_PER_TOKEN } from "../defaults.js";
import { ModelCallError } from "../model-port.js";
import { formatUsd } from "./cost.js";

export interface BudgetLimit {
  limit: number;
  /** Where it was set, for messages: "--budget-calls 2" or "budget.model_calls in aiython.toml". */
  source: string;
}

export interface BudgetLimits {
  modelCalls?: BudgetLimit;
  tokens?: BudgetLimit;
  costUsd?: BudgetLimit;
}

export interface Spend {
  calls: number;
  tokens: number;
  costUsd: number;
  /** Routes whose requests had no price (their cost is not in costUsd). */
  unpriced: string[];
}

/** What one request in flight holds until its answer is known. */
export interface Reservation {
  tokens: number;
  costUsd: number;
}

export class RunBudget {
  private readonly spent: Spend = { calls: 0, tokens: 0, costUsd: 0, unpriced: [] };
  private readonly reserved = { calls: 0, tokens: 0, costUsd: 0 };
  /** The first limit that refused a request, for the exit summary. */
  private refusedBy: BudgetLimit | null = null;

  constructor(readonly limits: BudgetLimits) {}

  get active(): boolean {
    return this.limits.modelCalls !== undefined || this.limits.tokens !== undefined || this.limits.costUsd !== undefined;
  }

  /** Whether requests need a size estimate (token or cost limits). */
  get needsEstimate(): boolean {
    return this.limits.tokens !== undefined || this.limits.costUsd !== undefined;
  }

  /** Admits one request whose body is about `bytes` long, or throws ModelCallError("budget"). */
  reserve(bytes: number, inputPricePerMillion: number | null): Reservation {
    const tokens = this.needsEstimate ? Math.ceil(bytes / BUDGET_BYTES_PER_TOKEN) : 0;
    const costUsd = inputPricePerMillion === null ? 0 : (tokens * inputPricePerMillion) / 1_000_000;
    const { modelCalls, tokens: tokenLimit, costUsd: costLimit } = this.limits;
    if (modelCalls && this.spent.calls + this.reserved.calls + 1 > modelCalls.limit) {
      this.refuse(
        modelCalls,
        `it allows ${plural(modelCalls.limit, "model request")} and ${this.spent.calls + this.reserved.calls} ${this.spent.calls + this.reserved.calls === 1 ? "was" : "were"} sent`,
      );
    }
    if (tokenLimit && this.spent.tokens + this.reserved.tokens + tokens > tokenLimit.limit) {
      this.refuse(
        tokenLimit,
        `it allows ${count(tokenLimit.limit)} tokens; ${count(this.spent.tokens + this.reserved.tokens)} are used and this request needs about ${count(tokens)} more`,
      );
    }
    if (costLimit && this.spent.costUsd + this.reserved.costUsd + costUsd > costLimit.limit) {
      this.refuse(
        costLimit,
        `it allows ${formatUsd(costLimit.limit)}; ${formatUsd(this.spent.costUsd + this.reserved.costUsd)} is spent and this request needs about ${formatUsd(costUsd)} more`,
      );
    }
    this.reserved.calls += 1;
    this.reserved.tokens += tokens;
    this.reserved.costUsd += costUsd;
    return { tokens, costUsd };
  }

  /** The request ended: its reservation (null: none was needed) becomes what it really used. */
  settle(reservation: Reservation | null, used: { route: string; tokens: number; costUsd: number | null }): void {
    if (reservation !== null) {
      this.reserved.calls -= 1;
      this.reserved.tokens -= reservation.tokens;
      this.reserved.costUsd -= reservation.costUsd;
    }
    this.spent.calls += 1;
    this.spent.tokens += used.tokens;
    if (used.costUsd === null) {
      if (!this.spent.unpriced.includes(used.route)) this.spent.unpriced.push(used.route);
    } else {
      this.spent.costUsd += used.costUsd;
    }
  }

  /** What the run spent so far. */
  spend(): Spend {
    return { ...this.spent, unpriced: [...this.spent.unpriced] };
  }

  /** One line for the end of a run that a budget stopped (exit 75). */
  summary(): string {
    const { calls, tokens, costUsd, unpriced } = this.spent;
    const cost = unpriced.length > 0 ? `cost unknown (no price for ${unpriced.join(", ")})` : formatUsd(costUsd);
    const which = this.refusedBy ? ` (${this.refusedBy.source})` : "";
    return `budget exhausted${which}: ${plural(calls, "model request")} sent, ${count(tokens)} tokens, ${cost}; the program did not catch AIBudgetError`;
  }

  private refuse(limit: BudgetLimit, why: string): never {
    this.refusedBy ??= limit;
    throw new ModelCallError("budget", `budget exhausted: ${limit.source}: ${why}; this request was not sent`);
  }
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? "" : "s"}`;
}
