// The run's budget (SPEC §13) from the command line and the configuration: `--budget-calls`,
// `--budget-tokens` and `--budget-cost` each override the same limit of `budget` in the profile
// the run selects. A cost budget cannot be kept for a route whose price is unknown, so one with
// such a route in any profile is a configuration error before the program starts.

import path from "node:path";
import type { ResolvedConfig } from "../config/index.js";
import { profileFor } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { RunBudget, type BudgetLimit, type BudgetLimits } from "../observe/budget.js";
import type { RunCommand } from "./run-command.js";

export function runBudget(config: ResolvedConfig, command: RunCommand): RunBudget {
  const flags = command.budget ?? {};
  const configured = config.modelConfigured ? profileFor(config, null).budget : {};
  const file = config.path === null ? "the configuration" : path.basename(config.path);
  const pick = (flag: number | undefined, flagName: string, value: number | undefined, key: string): BudgetLimit | undefined => {
    if (flag !== undefined) return { limit: flag, source: `${flagName} ${flag}` };
    if (value !== undefined) return { limit: value, source: `budget.${key} = ${value} in ${file}` };
    return undefined;
  };
  const limits: BudgetLimits = {};
  const modelCalls = pick(flags.modelCalls, "--budget-calls", configured.modelCalls, "model_calls");
  const tokens = pick(flags.tokens, "--budget-tokens", configured.tokens, "tokens");
  const costUsd = pick(flags.costUsd, "--budget-cost", configured.costUsd, "cost");
  if (modelCalls) limits.modelCalls = modelCalls;
  if (tokens) limits.tokens = tokens;
  if (costUsd) {
    limits.costUsd = costUsd;
    checkPriced(config, costUsd.source);
  }
  return new RunBudget(limits);
}

function checkPriced(config: ResolvedConfig, source: string): void {
  const unpriced = [...config.profiles.values()].flatMap((profile) => profile.routes.filter((route) => route.price === null).map((route) => route.id));
  if (unpriced.length === 0) return;
  const routes = [...new Set(unpriced)].join(", ");
  throw new ConfigError(
    `${source} needs the price of every model it may call, and ${routes} has none; ` +
      `set price = { input = USD, output = USD } (per million tokens) beside that model in aiython.toml`,
  );
}
