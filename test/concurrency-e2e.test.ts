// End-to-end: max_concurrency and the shared 429 backoff across the whole run (SPEC §7, §8).
// The built CLI runs fixture programs against the loopback model; what the server sees (how
// many requests are in flight at once, when each arrives) is the evidence, not wall time.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { aiython, cleanEnv, ROOT } from "./support/run-cli.js";
import { finishCall, startLoopbackModel, type RecordedRequest, type Responder } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "concurrency");

async function run(fixture: string, args: string[], responder: Responder, toml: string) {
  const dir = tempProject({ [fixture]: { copy: path.join(FIXTURES, fixture) } }, { prefix: "aiython-conc-" });
  const server = await startLoopbackModel({ responder });
  fs.writeFileSync(path.join(dir, "aiython.toml"), `version = 3\nmodel = "test-model"\napi_base = "${server.url}"\n${toml}\n`);
  try {
    const result = await aiython([fixture, ...args], { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: "sk-test" }) });
    return { ...result, requests: server.requests.filter((r: RecordedRequest) => r.path.endsWith("/chat/completions")) };
  } finally {
    await server.close();
  }
}

test("max_concurrency = 100 above the old bound of 64: 100 requests in flight at once, never 101", async () => {
  const limit = 100;
  let inFlight = 0;
  let most = 0;
  let release: () => void = () => undefined;
  const full = new Promise<void>((resolve) => (release = resolve));
  // No answer until `limit` requests are open together: a cap below it would never get there.
  const responder: Responder = async () => {
    inFlight++;
    most = Math.max(most, inFlight);
    if (inFlight >= limit) release();
    await Promise.race([full, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    inFlight--;
    return finishCall({ kind: "literal", value: "word" });
  };
  const result = await run("threads.py", ["120"], responder, `max_concurrency = ${limit}\ntimeout = 60`);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "120 ['word']\n");
  assert.equal(result.requests.length, 120);
  assert.equal(most, limit, `the most requests in flight at once (${most})`);
});

test("a 429 on a route holds back the other process's request to it too, for the wait it asked", async () => {
  const responder: Responder = (_request, index) => (index === 0 ? { status: 429, headers: { "retry-after": "2" } } : finishCall({ kind: "literal", value: "word" }));
  const result = await run("two_processes.py", [], responder, "max_concurrency = 8");
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "['word', 'word']\n");
  assert.equal(result.requests.length, 3, "the 429, then one request from each worker");
  const first = result.requests[0].receivedAt;
  for (const later of result.requests.slice(1)) {
    assert.ok(later.receivedAt - first >= 1900, `a request went ${later.receivedAt - first} ms after the 429 asked for 2 s`);
  }
});

test("20 threads reaching their first block together all pause: no thread sees the bridge's modules hidden mid-load", async () => {
  const result = await run("threads.py", ["20"], () => finishCall({ kind: "literal", value: "word" }), "max_concurrency = 20");
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stderr, "");
  assert.equal(result.stdout, "20 ['word']\n");
  assert.equal(result.requests.length, 20);
});

test("max_concurrency holds for the whole run: two profiles together never exceed the run's 4, and a profile's own 2 holds it lower", async () => {
  let inFlight = 0;
  let most = 0;
  const seen = { default: 0, second: 0 };
  const mostOf = { default: 0, second: 0 };
  // Each answer waits long enough for every thread to have sent what the limits let through.
  const responder: Responder = async (request) => {
    const which = JSON.stringify(request.body).includes("the second profile speaks") ? "second" : "default";
    inFlight++;
    seen[which]++;
    most = Math.max(most, inFlight);
    mostOf[which] = Math.max(mostOf[which], seen[which]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    inFlight--;
    seen[which]--;
    return finishCall({ kind: "literal", value: "word" });
  };
  const result = await run(
    "two_profiles.py",
    ["6"],
    responder,
    'max_concurrency = 4\n[profiles.second]\nmodel = "test-model"\nprompt = "the second profile speaks"\nmax_concurrency = 2',
  );
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "12 ['word']\n");
  assert.equal(result.requests.length, 12);
  assert.equal(most, 4, `the most requests in flight at once (${most})`);
  assert.equal(mostOf.second, 2, `the most of profile second's at once (${mostOf.second})`);
});
