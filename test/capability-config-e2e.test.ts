// [capabilities.NAME] routes end to end (SPEC §7, §10): `config show` lists each capability's
// routes with the chat model's provider prefixes, key lookup and price (never a key), and a wrong
// table stops the run before the program starts with a message naming the key and the fix.

import assert from "node:assert/strict";
import { test } from "node:test";
import { aiython, cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const KEY = "sk-capability-config-KEY-09ab";
const HEAD = 'version = 3\nmodel = "openai/gpt-4.1-mini"\n\n';

function project(tables: string): string {
  return tempProject({ "aiython.toml": HEAD + tables, "hello.py": "print('hello')\n" }, { prefix: "aiython-capcfg-" });
}

test("config show lists capability routes: provider prefixes, fallbacks, api_base with its key variable, price", async () => {
  const dir = project(
    '[capabilities.embedding]\nmodel = "openai/text-embedding-3-small"\nprice = { input = 0.02 }\n\n' +
      '[capabilities.vision]\nmodel = ["openai/gpt-4.1-mini", "openrouter/google/gemini-2.5-flash"]\n\n' +
      '[capabilities.reranking]\nmodel = "jina-reranker-v2"\napi_base = "http://127.0.0.1:9/v1"\napi_key_env = "RERANK_KEY"\n',
  );
  const ran = await aiython(["config", "show"], { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: KEY, RERANK_KEY: KEY }) });
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.ok(!ran.stdout.includes(KEY));
  const caps = JSON.parse(ran.stdout).profiles.default.capabilities;
  assert.deepEqual(Object.keys(caps).sort(), ["embedding", "reranking", "vision"]);
  assert.equal(caps.embedding.routes[0].provider, "openai");
  assert.equal(caps.embedding.routes[0].model, "text-embedding-3-small");
  assert.equal(caps.embedding.routes[0].credential_configured, true);
  assert.deepEqual(caps.embedding.price, { input: 0.02, output: null, per_call: null });
  assert.deepEqual(
    caps.vision.routes.map((r: any) => [r.provider, r.api_key_env]),
    [
      ["openai", "OPENAI_API_KEY"],
      ["openrouter", "OPENROUTER_API_KEY"],
    ],
  );
  assert.equal(caps.reranking.routes[0].api_base, "http://127.0.0.1:9/v1");
  assert.equal(caps.reranking.routes[0].api_key_env, "RERANK_KEY");
  assert.equal(caps.vision.price, null);
});

const BAD: [string, string, RegExp][] = [
  ["an unknown capability", '[capabilities.telepathy]\nmodel = "x"\n', /capabilities\.telepathy: unknown key; allowed keys here: vision, document_understanding, embedding, /],
  [
    "a model with no provider and no api_base",
    '[capabilities.vision]\nmodel = "nope/x"\n',
    /capabilities\.vision\.model: the model id has no known provider prefix .*set capabilities\.vision\.api_base/,
  ],
  [
    "a table for a local capability",
    "[capabilities.semantic_search]\n",
    /capabilities\.semantic_search: semantic_search runs locally and needs no route: it uses \[capabilities\.embedding\]; remove this table/,
  ],
];

for (const [what, table, message] of BAD) {
  test(`${what} stops the run before the program starts (exit 78)`, async () => {
    const ran = await aiython(["hello.py"], { cwd: project(table), env: cleanEnv({ OPENAI_API_KEY: KEY }) });
    assert.equal(ran.exitCode, 78);
    assert.equal(ran.stdout, "");
    assert.match(ran.stderr, /^aiython: aiython\.toml: /);
    assert.match(ran.stderr, message);
  });
}
