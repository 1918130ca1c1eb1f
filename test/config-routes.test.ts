// Configuration (SPEC §7, §8), the routes of a profile: providers and their defaults, custom routes
// behind an explicit api_base, route lists in order, and the max_concurrency and rate_limit keys.
// Every test runs in its own temporary project with a `.git`.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { profileFor, renderConfigShow } from "../src/config/index.js";
import { FAKE_KEY, configError, load, project, toml } from "./support/config-loading.js";

describe("providers", () => {
  const cases = [
    ["openai/gpt-4.1-mini", "openai", "gpt-4.1-mini", "https://api.openai.com/v1", "OPENAI_API_KEY"],
    ["openrouter/anthropic/claude-sonnet-4", "openrouter", "anthropic/claude-sonnet-4", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"],
    ["gemini/gemini-2.5-flash", "gemini", "gemini-2.5-flash", "https://generativelanguage.googleapis.com/v1beta/openai/", "GEMINI_API_KEY"],
    ["ollama/llama3.2", "ollama", "llama3.2", "http://localhost:11434/v1", null],
  ] as const;
  for (const [id, provider, model, apiBase, apiKeyEnv] of cases) {
    test(`${id} → ${provider}`, async () => {
      const root = project({ "aiython.toml": toml(`model = "${id}"`) });
      const env = apiKeyEnv ? { [apiKeyEnv]: FAKE_KEY } : {};
      const [route] = (await load(root, { env })).profiles.get("default")!.routes;
      assert.deepEqual(
        { id: route.id, provider: route.provider, model: route.model, apiBase: route.apiBase, apiKeyEnv: route.apiKeyEnv },
        { id, provider, model, apiBase, apiKeyEnv },
      );
      assert.equal(route.apiKey, apiKeyEnv ? FAKE_KEY : null);
      assert.equal(route.keySource, apiKeyEnv ? "environment" : "none");
    });
  }

  test("any id with an explicit api_base is a custom route, sent whole, key from api_key_env", async () => {
    const root = project({
      "aiython.toml": toml('model = "Qwen/Qwen2.5-7B"', 'api_base = "http://127.0.0.1:8000/v1"', 'api_key_env = "VLLM_KEY"'),
    });
    const [route] = (await load(root, { env: { VLLM_KEY: FAKE_KEY } })).profiles.get("default")!.routes;
    assert.equal(route.provider, "custom");
    assert.equal(route.model, "Qwen/Qwen2.5-7B");
    assert.equal(route.apiBase, "http://127.0.0.1:8000/v1");
    assert.equal(route.apiKey, FAKE_KEY);
  });

  test("a custom route without api_key_env needs no key; with one and no value it is not configured", async () => {
    const root = project({
      "aiython.toml": toml(
        'model = [{ model = "local", api_base = "http://127.0.0.1:8080/v1" },',
        '         { model = "guarded", api_base = "http://127.0.0.1:8081/v1", api_key_env = "GUARD_KEY" }]',
      ),
    });
    const shown = JSON.parse(renderConfigShow(await load(root)));
    const [open, guarded] = shown.profiles.default.routes;
    assert.deepEqual([open.credential_required, open.credential_configured], [false, true]);
    assert.deepEqual([guarded.credential_required, guarded.credential_configured, guarded.credential_source], [true, false, "none"]);
  });

  test("a hosted provider behind an explicit api_base keeps its prefix stripped and its key variable", async () => {
    const root = project({ "aiython.toml": toml('model = "openai/gpt-4.1"', 'api_base = "https://proxy.example/v1"') });
    const [route] = (await load(root, { env: { OPENAI_API_KEY: FAKE_KEY } })).profiles.get("default")!.routes;
    assert.deepEqual([route.provider, route.model, route.apiBase, route.apiKeyEnv], ["openai", "gpt-4.1", "https://proxy.example/v1", "OPENAI_API_KEY"]);
    assert.equal(route.apiKey, FAKE_KEY);
  });

  test("a route list keeps its order (fallback after 429) and mixes strings and tables", async () => {
    const root = project({
      "aiython.toml": toml(
        'model = ["openai/gpt-4.1-mini",',
        '         { model = "openrouter/openai/gpt-4.1-mini" },',
        '         { model = "local", api_base = "http://127.0.0.1:8080/v1", api_key_env = "LOCAL_KEY" }]',
      ),
    });
    const routes = (await load(root)).profiles.get("default")!.routes;
    assert.deepEqual(
      routes.map((r) => [r.id, r.provider, r.model, r.apiKeyEnv]),
      [
        ["openai/gpt-4.1-mini", "openai", "gpt-4.1-mini", "OPENAI_API_KEY"],
        ["openrouter/openai/gpt-4.1-mini", "openrouter", "openai/gpt-4.1-mini", "OPENROUTER_API_KEY"],
        ["local", "custom", "local", "LOCAL_KEY"],
      ],
    );
  });
});

describe("max_concurrency and rate_limit (SPEC §7, §8)", () => {
  test("max_concurrency goes up to 256; 257 is refused naming the bounds", async () => {
    const config = await load(project({ "aiython.toml": toml('model = "openai/gpt-4.1-mini"', "max_concurrency = 256") }));
    assert.equal(profileFor(config, null).maxConcurrency, 256);
    const message = await configError(() => load(project({ "aiython.toml": toml('model = "openai/gpt-4.1-mini"', "max_concurrency = 257") })));
    assert.match(message, /max_concurrency/);
    assert.match(message, /256/);
  });

  test("rate_limit applies to every route of a profile; a route table's own wins; a profile with its own model does not inherit it", async () => {
    const file = toml(
      'model = ["openai/gpt-4.1-mini", { model = "openai/gpt-4.1", rate_limit = { requests_per_minute = 5 } }]',
      "rate_limit = { requests_per_minute = 60, tokens_per_minute = 90000 }",
      "",
      "[profiles.own]",
      'model = "openai/gpt-4.1-nano"',
      "",
      "[profiles.inherits]",
      'prompt = "p"',
    );
    const config = await load(project({ "aiython.toml": file }));
    const routes = profileFor(config, null).routes;
    assert.deepEqual(
      routes.map((r) => r.rateLimit),
      [{ requestsPerMinute: 60, tokensPerMinute: 90000 }, { requestsPerMinute: 5 }],
    );
    assert.equal(config.profiles.get("own")!.routes[0].rateLimit, null);
    assert.deepEqual(config.profiles.get("inherits")!.routes[0].rateLimit, { requestsPerMinute: 60, tokensPerMinute: 90000 });
  });

  test("a rate_limit that is empty, not a whole number or unknown is refused naming the key", async () => {
    for (const value of ["{}", "{ requests_per_minute = 0 }", "{ requests_per_minute = 1.5 }", "{ per_hour = 3 }"]) {
      const message = await configError(() => load(project({ "aiython.toml": toml('model = "openai/gpt-4.1-mini"', `rate_limit = ${value}`) })));
      assert.match(message, /rate_limit/, value);
    }
  });
});
