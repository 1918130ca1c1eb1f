// The run's budget (SPEC §13) and request pricing, without a model: a call budget admits exactly
// its number of requests however many are in flight at once; token and cost budgets add an
// estimate of the next request's input to what is spent and reserved; settling replaces the
// estimate with the reported usage; a refusal is a ModelCallError of kind "budget".

import { test } from "node:test";
import assert from "node:assert/strict";
import { RunBudget } from "../src/observe/budget.js";
import { costLabel, formatUsd, requestCost, totalCost } from "../src/observe/cost.js";
import { ModelCallError } from "../src/model-port.js";

const refused = (work: () => unknown, pattern: RegExp) =>
  assert.throws(work, (error: unknown) => error instanceof ModelCallError && error.kind === "budget" && pattern.test(error.message));

test("a call budget counts requests in flight: 2 allowed, the third is refused until nothing frees", () => {
  const budget = new RunBudget({ modelCalls: { limit: 2, source: "--budget-calls 2" } });
  const first = budget.reserve(4000, null);
  const second = budget.reserve(4000, null);
  refused(() => budget.reserve(4000, null), /^budget exhausted: --budget-calls 2: it allows 2 model requests and 2 were sent; this request was not sent$/);
  budget.settle(first, { route: "r", tokens: 100, costUsd: 0.001 });
  budget.settle(second, { route: "r", tokens: 100, costUsd: 0.001 });
  refused(() => budget.reserve(10, null), /2 were sent/);
  assert.deepEqual(budget.spend(), { calls: 2, tokens: 200, costUsd: 0.002, unpriced: [] });
  assert.equal(budget.summary(), "budget exhausted (--budget-calls 2): 2 model requests sent, 200 tokens, $0.002000; the program did not catch AIBudgetError");
});

test("a token budget refuses a request whose estimated input would pass it; usage replaces the estimate", () => {
  const budget = new RunBudget({ tokens: { limit: 3000, source: "--budget-tokens 3000" } });
  const held = budget.reserve(8000, null); // about 2,000 tokens
  refused(() => budget.reserve(8000, null), /it allows 3,000 tokens; 2,000 are used and this request needs about 2,000 more/);
  budget.settle(held, { route: "r", tokens: 1500, costUsd: null });
  budget.settle(budget.reserve(4000, null), { route: "r", tokens: 1400, costUsd: null });
  refused(() => budget.reserve(4000, null), /2,900 are used/);
  assert.match(budget.summary(), /2 model requests sent, 2,900 tokens, cost unknown \(no price for r\);/);
});

test("a cost budget prices the estimate at the route's input price", () => {
  const budget = new RunBudget({ costUsd: { limit: 0.01, source: "budget.cost = 0.01 in aiython.toml" } });
  budget.settle(budget.reserve(4_000_000, 0.001), { route: "r", tokens: 1_000_000, costUsd: 0.009 });
  refused(() => budget.reserve(4_000_000, 0.002), /it allows \$0\.0100; \$0\.009000 is spent and this request needs about \$0\.002000 more/);
  assert.doesNotThrow(() => budget.reserve(400, 0.002));
});

test("without limits nothing is refused and spending is still counted", () => {
  const budget = new RunBudget({});
  assert.equal(budget.active, false);
  for (let i = 0; i < 5; i++) budget.settle(null, { route: "r", tokens: 10, costUsd: 0 });
  assert.equal(budget.spend().calls, 5);
});

test("a request's cost: cached prompt tokens at cached_input, no usage is free, no price is unknown", () => {
  const price = { input: 2, output: 8, cachedInput: 0.5 };
  assert.equal(requestCost(price, { prompt_tokens: 1200, cached_tokens: 1024, completion_tokens: 8 }), (176 * 2 + 1024 * 0.5 + 64) / 1e6);
  assert.equal(requestCost(price, undefined), 0);
  assert.equal(requestCost(null, { prompt_tokens: 5 }), null);
  assert.deepEqual([formatUsd(0), formatUsd(0.000042), formatUsd(1.5)], ["$0", "$0.000042", "$1.5000"]);
  assert.equal(costLabel(null, ["a/b", "c"]), "cost unknown (no price for a/b, c)");
  assert.deepEqual(
    totalCost([
      { cost_usd: 1, unpriced_routes: [] },
      { cost_usd: null, unpriced_routes: ["x"] },
      { cost_usd: 2, unpriced_routes: ["x"] },
    ]),
    { cost_usd: null, unpriced_routes: ["x"] },
  );
});
