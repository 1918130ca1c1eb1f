// run_plan's rules end to end (SPEC §10) through the built CLI against the loopback capability
// fakes: a plan with any problem runs nothing; a capability with no route ends the block naming it
// and prints the setup command; pure steps run side by side, effects alone and in plan order; a
// step done once in an invocation is reused, an uncertain submission is never sent again.

import { test } from "node:test";
import assert from "node:assert/strict";
import { capabilityConfig, startCapabilityFakes, type FakeOptions } from "./support/capability-fakes.js";
import { finishLiteral, finishWith, runPlan, startPlanModel, type Turn } from "./support/plan-model.js";
import { aiython, cleanEnv, type Ran } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const env = (extra: Record<string, string> = {}) => cleanEnv({ OPENAI_API_KEY: "sk-plans-test", AIYTHON_NO_CACHE: "1", ...extra });
const embed = (id: string, input: unknown) => ({ id, capability: "embedding", params: { input } });

async function runBlocks(blocks: Record<string, Turn[]>, program: string, opts: { fakes?: FakeOptions; routes?: string[]; files?: Record<string, string> } = {}) {
  const fakes = await startCapabilityFakes(opts.fakes);
  const model = await startPlanModel(blocks);
  try {
    const root = tempProject({ "aiython.toml": capabilityConfig(fakes.url, model.url, opts.routes), "p.py": program, ...opts.files });
    const ran: Ran = await aiython(["p.py"], { cwd: root, env: env() });
    const chats = model.model.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
    return { ran, fakes, seen: model.seen, chats };
  } finally {
    await Promise.all([fakes.close(), model.close()]);
  }
}

test("a plan with any problem is refused whole: one error, and no step ran", async () => {
  const bad = [
    [embed("a", "fine"), embed("b", { $ref: "nope" })],
    [embed("a", { $ref: "b" }), embed("b", { $ref: "a" })],
    [embed("a", "fine"), { id: "b", capability: "embedding", params: { inputs: "typo" } }],
    [embed("a", "fine"), { id: "b", capability: "vision", params: { prompt: "look", images: [{ $asset: "../outside.png" }] } }],
    [embed("a", "fine"), embed("a", "twice")],
    [embed("a", "fine"), embed("b", { $binding: "not_a_name_here" })],
  ];
  const unknown = [embed("a", "fine"), { id: "b", capability: "telepathy", params: {} }];
  const turns: Turn[] = [...bad.map((steps) => runPlan(steps)), runPlan(unknown), finishLiteral(() => "refused")];
  const { ran, fakes, seen } = await runBlocks({ "check the plans": turns }, "x = check the plans\nprint(x)\n", { files: { "sub/keep.txt": "x" } });
  assert.equal(ran.stderr, "");
  assert.equal(ran.stdout, "refused\n");
  assert.equal(fakes.requests.length, 0, "a refused plan reached an endpoint");
  assert.equal(seen.length, bad.length + 1);
  const expected = [
    /step "b" params\.input: \$ref names no step of this plan: "nope"/,
    /steps "a" -> "b" -> "a" refer to each other in a cycle/,
    /step "b": params: missing required "input"; params: unknown "inputs" for embedding/,
    /step "b" params\.images\[0\]: \$asset "\.\.\/outside\.png" is outside the project/,
    /step id "a" is used twice/,
    /name 'not_a_name_here' is not defined/,
  ];
  const last = seen.pop();
  assert.equal(last.status, "error");
  assert.match(last.message, /^run_plan: argument "steps\.1\.capability" must be one of "vision", /);
  for (const [i, answer] of seen.entries()) {
    assert.equal(answer.status, "error", JSON.stringify(answer));
    assert.equal(answer.error, "PlanRejected", JSON.stringify(answer));
    assert.match(answer.message, expected[i]);
    assert.match(answer.message, /no step ran$/);
  }
});

test("a capability with no route ends the block with an error naming it and prints the setup command", async () => {
  const steps = [embed("a", "fine"), { id: "g", capability: "image_generation", params: { prompt: "a fox" } }];
  const { ran, fakes } = await runBlocks({ "draw a fox": [runPlan(steps), finishLiteral(() => "unreachable")] }, "x = draw a fox\nprint(x)\n", { routes: ["embedding"] });
  assert.equal(ran.exitCode, 1);
  assert.equal(ran.stdout, "");
  assert.match(ran.stderr, /aiython\.AIError: .*image_generation/);
  assert.match(ran.stderr, /^aiython: capability "image_generation" has no route; configure one with: aiython setup --capability image_generation$/m);
  assert.equal(fakes.requests.length, 0);
});

test("a directive asking for a capability with no route fails before any model call", async () => {
  const program = '# aiython: capability="vision"\nx = describe the chart\nprint(x)\n';
  const { ran, chats } = await runBlocks({ "describe the chart": [finishLiteral(() => "unreachable")] }, program, { routes: ["embedding"] });
  assert.equal(ran.exitCode, 1);
  assert.match(ran.stderr, /AIError: capability "vision" is not configured/);
  assert.match(ran.stderr, /aiython setup --capability vision\n/);
  assert.equal(chats, 0);
});

test("ready pure steps run side by side; effects run alone and in plan order", async () => {
  const steps = [
    embed("e1", "first text"),
    embed("e2", "second text"),
    { id: "s", capability: "text_to_speech", params: { text: "spoken", format: "wav" } },
    { id: "g", capability: "image_generation", params: { prompt: "a fox" } },
    embed("e3", "third text"),
  ];
  const delayMs = { "/v1/embeddings": 300, "/v1/audio/speech": 150, "/v1/images/generations": 150 };
  const { ran, fakes } = await runBlocks({ "do it all": [runPlan(steps), finishWith("e3")] }, "x = do it all\nprint(len(x))\n", { fakes: { delayMs } });
  assert.equal(ran.stderr, "");
  assert.equal(ran.stdout, "64\n");
  const [e1, e2, e3] = fakes.requests.filter((r) => r.path === "/v1/embeddings");
  const speech = fakes.requests.find((r) => r.path === "/v1/audio/speech")!;
  const image = fakes.requests.find((r) => r.path === "/v1/images/generations")!;
  assert.ok(e2.receivedAt < e1.answeredAt!, "the two pure steps did not overlap");
  assert.ok(speech.receivedAt >= Math.max(e1.answeredAt!, e2.answeredAt!), "an effect ran beside a pure step");
  assert.ok(image.receivedAt >= speech.answeredAt!, "the second effect did not wait for the first");
  assert.ok(e3.receivedAt >= image.answeredAt!, "a later pure step ran beside an effect");
});

test("a step done once in an invocation is reused, not requested again", async () => {
  const steps = [embed("v", ["same text"])];
  const turns = [runPlan(steps), runPlan(steps), finishWith("v")];
  const { ran, fakes, seen } = await runBlocks({ "embed it twice": turns }, "x = embed it twice\nprint(len(x))\n");
  assert.equal(ran.stderr, "");
  assert.equal(ran.stdout, "1\n");
  assert.equal(fakes.count("/v1/embeddings"), 1);
  assert.equal(seen[0].result.steps.v.reused, undefined);
  assert.equal(seen[1].result.steps.v.reused, true);
});

test("a submission whose outcome is uncertain is never sent again", async () => {
  const steps = [{ id: "g", capability: "image_generation", params: { prompt: "a fox" } }];
  const turns = [runPlan(steps), runPlan(steps), finishLiteral((previous) => previous.result.steps.g.status)];
  const { ran, fakes, seen } = await runBlocks({ "draw once": turns }, "x = draw once\nprint(x)\n", { fakes: { drop: new Set(["/v1/images/generations"]) } });
  assert.equal(ran.stderr, "");
  assert.equal(ran.stdout, "uncertain\n");
  assert.equal(fakes.count("/v1/images/generations"), 1, "the uncertain submission was sent again");
  assert.equal(seen[0].result.steps.g.status, "uncertain");
  assert.match(seen[0].result.steps.g.message, /never|not .*again|may have/i);
});

test("indexing a folder of notes, then semantic search finds the nearest one", async () => {
  const files = {
    "notes/cats.md": "# Cats\n\nCats sleep most of the day and purr.\n",
    "notes/rust.md": "# Rust\n\nThe borrow checker keeps memory safe.\n",
    "notes/tea.md": "# Tea\n\nGreen tea steeps for two minutes.\n",
  };
  const steps = [
    { id: "i", capability: "indexing", params: { index: "notes", files: [{ $asset: "notes" }] } },
    { id: "q", capability: "semantic_search", params: { index: "notes", query: "how long does green tea steep", k: 2 } },
  ];
  const program = "hits = search my notes\nprint(hits[0]['source'], len(hits), type(hits[0]['score']).__name__)\n";
  const { ran, seen } = await runBlocks({ "search my notes": [runPlan(steps), finishWith("q")] }, program, { files });
  assert.equal(ran.stderr, "");
  assert.equal(ran.stdout, "notes/tea.md 2 float\n");
  assert.equal(seen[0].result.steps.i.status, "ok");
});

test("a plan whose steps need a permission the profile lacks is refused naming both", async () => {
  const fakes = await startCapabilityFakes();
  const steps = [embed("v", "text"), { id: "g", capability: "image_generation", params: { prompt: "a fox" } }];
  const model = await startPlanModel({ "draw it": [runPlan(steps), finishLiteral(() => "after")] });
  try {
    const toml = capabilityConfig(fakes.url, model.url, ["embedding", "image_generation"]).replace(
      "version = 3\n",
      'version = 3\npermissions = ["read_asset", "read_code", "network"]\n',
    );
    const root = tempProject({ "aiython.toml": toml, "p.py": "x = draw it\nprint(x)\n" });
    const ran = await aiython(["p.py"], { cwd: root, env: env() });
    assert.equal(ran.stdout, "after\n", ran.stderr);
    assert.match(model.seen[0].message, /step "g" needs the generate_file permission, which profile "default" does not grant/);
    assert.equal(fakes.requests.length, 0);
  } finally {
    await Promise.all([fakes.close(), model.close()]);
  }
});

test("a route answering 429 falls through to the next route of the capability", async () => {
  const busy = await startCapabilityFakes({ status: { "/v1/rerank": 429 } });
  const spare = await startCapabilityFakes();
  const steps = [{ id: "r", capability: "reranking", params: { query: "ripe banana", documents: ["an apple", "a ripe banana"] } }];
  const model = await startPlanModel({ "rank it": [runPlan(steps), finishWith("r")] });
  try {
    const toml =
      `version = 3\nmodel = { model = "stand-in", api_base = "${model.url}" }\n\n[capabilities.reranking]\n` +
      `model = [{ model = "busy-rerank", api_base = "${busy.url}" }, { model = "spare-rerank", api_base = "${spare.url}" }]\n`;
    const root = tempProject({ "aiython.toml": toml, "p.py": "x = rank it\nprint(x[0]['text'])\n" });
    const ran = await aiython(["p.py"], { cwd: root, env: env() });
    assert.equal(ran.stderr, "");
    assert.equal(ran.stdout, "a ripe banana\n");
    assert.ok(busy.count("/v1/rerank") >= 1);
    assert.equal(spare.count("/v1/rerank"), 1);
    assert.equal(spare.requests[0].json.model, "spare-rerank");
  } finally {
    await Promise.all([busy.close(), spare.close(), model.close()]);
  }
});

test("a plan of 12 steps prints nothing of Node's own on the program's stderr (no MaxListenersExceededWarning)", async () => {
  const steps = Array.from({ length: 12 }, (_, i) => embed(`e${i}`, `text ${i}`));
  const { ran, fakes } = await runBlocks({ "embed them all": [runPlan(steps), finishWith("e11")] }, "x = embed them all\nprint(len(x))\n", {
    fakes: { delayMs: { "/v1/embeddings": 50 } },
  });
  assert.equal(ran.stderr, "");
  assert.equal(ran.stdout, "64\n");
  assert.equal(fakes.count("/v1/embeddings"), 12);
});
