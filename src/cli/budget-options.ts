// `--budget-calls N`, `--budget-tokens N`, `--budget-cost USD` (SPEC §2, §13) as numbers; a value
// that is not one is a usage error that names the flag and what it takes.

import { UsageError } from "../errors.js";
import type { CliOptions } from "./options.js";

export function budgetOf(options: CliOptions): { modelCalls?: number; tokens?: number; costUsd?: number } {
  const budget: { modelCalls?: number; tokens?: number; costUsd?: number } = {};
  if (options.budgetCalls !== undefined) budget.modelCalls = wholeNumber("--budget-calls", options.budgetCalls);
  if (options.budgetTokens !== undefined) budget.tokens = wholeNumber("--budget-tokens", options.budgetTokens);
  if (options.budgetCost !== undefined) budget.costUsd = amount("--budget-cost", options.budgetCost);
  return budget;
}

function wholeNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value)) throw new UsageError(`${flag} takes a whole number of 0 or more, not '${text}'`);
  return value;
}

function amount(flag: string, text: string): number {
  const value = Number(text.trim().replace(/^\$/, ""));
  if (text.trim() === "" || !Number.isFinite(value) || value < 0) throw new UsageError(`${flag} takes an amount in USD of 0 or more (e.g. 0.50), not '${text}'`);
  return value;
}
