// Budgets end to end (SPEC §13) through the built CLI and the loopback model: a request that would
// exceed a budget is never sent; the block raises AIBudgetError at its line (a program can catch
// it, it is an AIError); uncaught, the run ends with exit 75 and one line of what was spent.
// Retries, recovery consultations and concurrent threads all count against the one budget.

import { test } from "node:test";
import assert from "node:assert/strict";
import { finishCall, startLoopbackModel, type LoopbackModel } from "./support/loopback-model.js";
import { FAKE_KEY, runIn } from "./support/observe-e2e.js";
import { cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const THREE_BLOCKS = 'a = say one\nprint("a", a)\nb = say two\nprint("b", b)\nc = say three\nprint("c", c)\n';
const SEVEN = () => ({ ...finishCall({ kind: "literal", value: 7 }), usage: { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010 } });

function project(model: LoopbackModel, program: string, extra = ""): string {
  const toml = `version = 3\nmodel = { model = "loop", api_base = "${model.url}", price = { input = 1, output = 4 } }\n${extra}`;
  return tempProject({ "main.py": program, "aiython.toml": toml });
}

const env = () => cleanEnv({ OPENAI_API_KEY: FAKE_KEY });
const sent = (model: LoopbackModel) => model.requests.filter((r) => r.path.endsWith("/chat/completions")).length;

test("a budget of 2 calls with 3 blocks ends with exit 75 after exactly 2 requests", async () => {
  const model = await startLoopbackModel({ responder: SEVEN });
  try {
    const ran = await runIn(project(model, THREE_BLOCKS), ["--budget-calls", "2", "main.py"], env());
    assert.equal(ran.exitCode, 75, ran.stderr);
    assert.equal(sent(model), 2);
    assert.equal(ran.stdout, "a 7\nb 7\n");
    assert.equal(
      ran.stderr,
      [
        "Traceback (most recent call last):",
        `  File "${ran.stderr.match(/File "([^"]+)"/)?.[1]}", line 5, in <module>`,
        "    c = say three",
        "        ^^^^^^^^^^",
        "aiython.AIBudgetError: budget exhausted: --budget-calls 2: it allows 2 model requests and 2 were sent; this request was not sent",
        "aiython: budget exhausted (--budget-calls 2): 2 model requests sent, 2,020 tokens, $0.002080; the program did not catch AIBudgetError",
        "",
      ].join("\n"),
    );
  } finally {
    await model.close();
  }
});

test("an except AIBudgetError in the program catches it; it is an AIError and the run goes on", async () => {
  const program = [
    "from aiython import AIBudgetError, AIError",
    "results = []",
    "for i in range(3):",
    "    try:",
    "        results.append(give a number)",
    "    except AIBudgetError as error:",
    "        print('caught', type(error).__name__, isinstance(error, AIError))",
    "print(results)",
    "",
  ].join("\n");
  const model = await startLoopbackModel({ responder: SEVEN });
  try {
    const ran = await runIn(project(model, program, "budget = { model_calls = 2 }\n"), ["main.py"], env());
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, "caught AIBudgetError True\n[7, 7]\n");
    assert.equal(ran.stderr, "");
    assert.equal(sent(model), 2);
  } finally {
    await model.close();
  }
});

test("retries count: with 2 calls allowed, a 500 and its retry spend the budget and the block stops", async () => {
  const model = await startLoopbackModel({ responder: () => ({ status: 500, headers: { "retry-after-ms": "0" } }) });
  try {
    const ran = await runIn(project(model, THREE_BLOCKS, "budget = { model_calls = 9 }\n"), ["--budget-calls", "2", "--stats=json", "main.py"], env());
    assert.equal(ran.exitCode, 75, ran.stderr);
    assert.equal(sent(model), 2, "the flag overrides the config's budget; the third attempt is never sent");
    assert.match(ran.stderr, /line 1, in <module>\n {4}a = say one\n.*\naiython\.AIBudgetError: budget exhausted: --budget-calls 2: it allows 2 model requests and 2 were sent/);
    assert.match(ran.stderr, /"model_calls":2,/);
  } finally {
    await model.close();
  }
});

test("the budget is one for all threads: 4 blocks at once with 2 calls allowed send exactly 2", async () => {
  const program = [
    "import threading",
    "from aiython import AIBudgetError",
    "outcomes = []",
    "def work(i):",
    "    try:",
    "        outcomes.append(give a number)",
    "    except AIBudgetError:",
    "        outcomes.append('refused')",
    "threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]",
    "for t in threads: t.start()",
    "for t in threads: t.join()",
    "print(sorted(map(str, outcomes)))",
    "",
  ].join("\n");
  const model = await startLoopbackModel({ responder: () => ({ ...SEVEN(), delayMs: 300 }) });
  try {
    const ran = await runIn(project(model, program), ["--budget-calls", "2", "main.py"], env());
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, "['7', '7', 'refused', 'refused']\n");
    assert.equal(sent(model), 2);
  } finally {
    await model.close();
  }
});

test("a token budget refuses the request that would pass it; a cost budget counts USD", async () => {
  const model = await startLoopbackModel({ responder: SEVEN });
  try {
    const tokens = await runIn(project(model, THREE_BLOCKS), ["--budget-tokens", "2500", "main.py"], env());
    assert.equal(tokens.exitCode, 75, tokens.stderr);
    assert.equal(tokens.stdout, "a 7\nb 7\n");
    assert.match(
      tokens.stderr,
      /AIBudgetError: budget exhausted: --budget-tokens 2500: it allows 2,500 tokens; 2,020 are used and this request needs about [\d,]+ more; this request was not sent\n/,
    );
    const before = sent(model);
    const cost = await runIn(project(model, THREE_BLOCKS, "budget = { cost = 0.0015 }\n"), ["main.py"], env());
    assert.equal(cost.exitCode, 75, cost.stderr);
    assert.equal(sent(model) - before, 1, "$0.00104 spent; the second request's input alone would pass $0.0015");
    assert.match(
      cost.stderr,
      /budget exhausted: budget\.cost = 0\.0015 in aiython\.toml: it allows \$0\.001500; \$0\.001040 is spent and this request needs about \$0\.00\d+ more/,
    );
    assert.match(
      cost.stderr,
      /\naiython: budget exhausted \(budget\.cost = 0\.0015 in aiython\.toml\): 1 model request sent, 1,010 tokens, \$0\.001040; the program did not catch AIBudgetError\n$/,
    );
  } finally {
    await model.close();
  }
});

test("a recovery consultation the budget refuses raises AIBudgetError at the statement, the failure as its context", async () => {
  const model = await startLoopbackModel({ responder: SEVEN });
  try {
    const ran = await runIn(project(model, 'print("before")\nvalue = 1 / 0\nprint("after")\n'), ["--budget-calls", "0", "main.py"], env());
    assert.equal(ran.exitCode, 75, ran.stderr);
    assert.equal(ran.stdout, "before\n");
    assert.equal(sent(model), 0);
    assert.match(
      ran.stderr,
      /ZeroDivisionError: division by zero\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback \(most recent call last\):\n {2}File "[^"]+", line 2, in <module>\n/,
    );
    assert.match(
      ran.stderr,
      /aiython\.AIBudgetError: budget exhausted: --budget-calls 0: it allows 0 model requests and 0 were sent; this request was not sent\naiython: budget exhausted/,
    );
  } finally {
    await model.close();
  }
});

test("bad budgets are refused before anything runs: a bad flag value (exit 2), a cost budget without prices (exit 78)", async () => {
  const ran = await runIn(tempProject({ "main.py": "print(1)\n" }), ["--budget-calls", "two", "main.py"], env());
  assert.deepEqual([ran.exitCode, ran.stdout, ran.stderr], [2, "", "aiython: --budget-calls takes a whole number of 0 or more, not 'two'\n"]);
  const cost = await runIn(tempProject({ "main.py": "print(1)\n" }), ["--budget-cost", "-1", "main.py"], env());
  assert.deepEqual([cost.exitCode, cost.stderr], [2, "aiython: --budget-cost takes an amount in USD of 0 or more (e.g. 0.50), not '-1'\n"]);
  const root = tempProject({ "main.py": "print(1)\n", "aiython.toml": 'version = 3\nmodel = { model = "loop", api_base = "http://127.0.0.1:9/v1" }\n' });
  const unpriced = await runIn(root, ["--budget-cost", "0.5", "main.py"], env());
  assert.equal(unpriced.exitCode, 78);
  assert.equal(unpriced.stdout, "");
  assert.equal(
    unpriced.stderr,
    "aiython: --budget-cost 0.5 needs the price of every model it may call, and loop has none; set price = { input = USD, output = USD } (per million tokens) beside that model in aiython.toml\n",
  );
  const config = await runIn(root, ["config", "show"], env());
  assert.deepEqual(JSON.parse(config.stdout).profiles.default.budget, { model_calls: null, tokens: null, cost: null });
});
