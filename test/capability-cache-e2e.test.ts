// The store side of SPEC §10/§11 end to end: a cacheable step is not requested again by a second
// run (24 h cache), a `--replay` of a capability run makes no request at all (model or endpoint)
// and prints the same output, and --stats counts the capability calls and their cost.

import { test } from "node:test";
import assert from "node:assert/strict";
import { capabilityConfig, startCapabilityFakes } from "./support/capability-fakes.js";
import { finishWith, runPlan, startPlanModel } from "./support/plan-model.js";
import { aiython, cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const PROGRAM = "ranked = rank the notes\nprint(ranked[0]['text'], type(ranked[0]['score']).__name__)\n";
const STEPS = [
  { id: "v", capability: "embedding", params: { input: "ripe banana" } },
  { id: "r", capability: "reranking", params: { query: "ripe banana", documents: ["an apple", "a ripe banana"] } },
];
const PRICED = "\n[capabilities.reranking.price]\nper_call = 0.002\n";

async function setUp() {
  const fakes = await startCapabilityFakes();
  const model = await startPlanModel({ "rank the notes": [runPlan(STEPS), finishWith("r")] });
  const root = tempProject({ "aiython.toml": capabilityConfig(fakes.url, model.url, ["embedding", "reranking"]) + PRICED, "p.py": PROGRAM });
  const run = (args: string[], extra: Record<string, string> = {}) => aiython([...args, "p.py"], { cwd: root, env: cleanEnv({ OPENAI_API_KEY: "sk-cache-test", ...extra }) });
  const chats = () => model.model.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
  const aiythonIn = (args: string[]) => aiython(args, { cwd: root, env: cleanEnv() });
  return { fakes, model, run, chats, aiythonIn, close: () => Promise.all([fakes.close(), model.close()]) };
}

test("a cached step is not requested again by a second run", async () => {
  const t = await setUp();
  try {
    const first = await t.run([]);
    assert.equal(first.stderr, "");
    assert.equal(first.stdout, "a ripe banana float\n");
    assert.equal(t.fakes.count("/v1/embeddings"), 1);
    assert.equal(t.fakes.count("/v1/rerank"), 1);
    const second = await t.run([]);
    assert.equal(second.stdout, first.stdout);
    assert.equal(t.fakes.count("/v1/embeddings"), 1, "the cached embedding was requested again");
    assert.equal(t.fakes.count("/v1/rerank"), 1, "the cached rerank was requested again");
    assert.deepEqual(t.model.seen[1], t.model.seen[0], "the model saw a cache hit differently (a replay would miss)");
    const third = await t.run([], { AIYTHON_NO_CACHE: "1" });
    assert.equal(third.stdout, first.stdout);
    assert.equal(t.fakes.count("/v1/embeddings"), 2, "AIYTHON_NO_CACHE=1 still answered from the cache");
  } finally {
    await t.close();
  }
});

test("a replayed capability run makes no request and prints the same", async () => {
  const t = await setUp();
  try {
    const recorded = await t.run([], { AIYTHON_NO_CACHE: "1" });
    assert.equal(recorded.stderr, "");
    const [chats, endpoint] = [t.chats(), t.fakes.requests.length];
    assert.equal(endpoint, 2);
    const replayed = await t.run(["--replay"], { AIYTHON_NO_CACHE: "1" });
    assert.equal(replayed.stderr, "");
    assert.equal(replayed.stdout, recorded.stdout);
    assert.equal(t.chats(), chats, "--replay asked the model");
    assert.equal(t.fakes.requests.length, endpoint, "--replay called a capability endpoint");
  } finally {
    await t.close();
  }
});

test("--stats counts capability calls, cached answers and their cost; the journal keeps them", async () => {
  const t = await setUp();
  try {
    const stat = (ran: { stderr: string }) => JSON.parse(/^aiython stats: (.*)$/m.exec(ran.stderr)![1]).invocations[0].capabilities;
    const first = stat(await t.run(["--stats=json"]));
    assert.equal(first.calls, 2);
    assert.equal(first.cached, 0);
    assert.deepEqual(first.counts, { embedding: 1, reranking: 1 });
    assert.equal(first.cost_usd, 0.002);
    assert.deepEqual(first.unpriced, ["embedding"]);
    const second = stat(await t.run(["--stats=json"]));
    assert.equal(second.calls, 0);
    assert.equal(second.cached, 2);
    assert.equal(second.cost_usd, null);
    const shown = await t.aiythonIn(["runs", "show", "1", "--json"]);
    assert.equal(shown.exitCode, 0, shown.stderr);
    const journaled = JSON.parse(shown.stdout).invocations[0].capabilities;
    assert.equal(journaled.calls, 2, "the journal did not keep the run's capability calls");
    assert.deepEqual(journaled.counts, { embedding: 1, reranking: 1 });
  } finally {
    await t.close();
  }
});
