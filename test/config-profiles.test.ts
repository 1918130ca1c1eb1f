// Configuration (SPEC §7), profiles: what a profile overrides and inherits, their precedence
// (--force-profile > directive > --profile > config default, SPEC §3.3), unknown profiles, and
// --model on the selected profile. Every test runs in its own temporary project with a `.git`.

import assert from "node:assert/strict";
import path from "node:path";
import { describe, test } from "node:test";
import { profileFor } from "../src/config/index.js";
import { FAKE_KEY, configError, load, project, toml } from "./support/config-loading.js";

describe("profiles", () => {
  const file = toml(
    'model = "openai/gpt-4.1-mini"',
    'api_base = "https://proxy.example/v1"',
    'prompt = "top"',
    "timeout = 60",
    'permissions = ["read_code"]',
    'capabilities = { vision = { model = "openai/gpt-4.1" } }',
    "",
    "[profiles.fast]",
    'model = "openai/gpt-4.1-nano"',
    "max_rounds = 4",
    'capabilities = { embedding = { model = "openai/text-embedding-3-small" } }',
    "",
    "[profiles.careful]",
    'prompt = "check twice"',
    "journal = false",
    "cache = false",
    "max_concurrency = 2",
    "context_values = false",
  );

  test("a profile overrides keys and inherits the rest", async () => {
    const config = await load(project({ "aiython.toml": file }));
    const fast = config.profiles.get("fast")!;
    const careful = config.profiles.get("careful")!;
    assert.deepEqual([fast.prompt, fast.timeoutSeconds, fast.maxRounds, [...fast.permissions]], ["top", 60, 4, ["read_code"]]);
    assert.deepEqual([careful.prompt, careful.journal, careful.maxConcurrency, careful.contextValues], ["check twice", false, 2, false]);
    assert.deepEqual([careful.cache, fast.cache], [false, true]);
    assert.deepEqual(Object.keys(fast.capabilities).sort(), ["embedding", "vision"]);
  });

  test("a profile inherits api_base and api_key_env it does not set, also when it sets its own model", async () => {
    const config = await load(project({ "aiython.toml": file }));
    assert.equal(config.profiles.get("fast")!.routes[0].apiBase, "https://proxy.example/v1");
    assert.equal(config.profiles.get("fast")!.routes[0].id, "openai/gpt-4.1-nano");
    assert.equal(config.profiles.get("careful")!.routes[0].apiBase, "https://proxy.example/v1");
    assert.equal(config.profiles.get("careful")!.routes[0].id, "openai/gpt-4.1-mini");
  });

  test("a profile that sets only model keeps the top-level local server and key variable", async () => {
    const root = project({
      "aiython.toml": toml(
        'model = "llama3.1"',
        'api_base = "http://127.0.0.1:8080/v1"',
        'api_key_env = "LOCAL_KEY"',
        "",
        "[profiles.small]",
        'model = "qwen3:0.6b"',
        "",
        "[profiles.other]",
        'model = "qwen3:4b"',
        'api_base = "http://127.0.0.1:9090/v1"',
      ),
    });
    const config = await load(root, { env: { LOCAL_KEY: FAKE_KEY } });
    const [small] = config.profiles.get("small")!.routes;
    assert.deepEqual(
      [small.provider, small.model, small.apiBase, small.apiKeyEnv, small.keySource],
      ["custom", "qwen3:0.6b", "http://127.0.0.1:8080/v1", "LOCAL_KEY", "environment"],
    );
    const [other] = config.profiles.get("other")!.routes;
    assert.deepEqual([other.apiBase, other.apiKeyEnv], ["http://127.0.0.1:9090/v1", "LOCAL_KEY"]);
  });

  test("precedence: --force-profile > directive > --profile > config default", async () => {
    const root = project({ "aiython.toml": file });
    const plain = await load(root);
    assert.equal(profileFor(plain, null).name, "default");
    assert.equal(profileFor(plain, "careful").name, "careful");
    const picked = await load(root, { profile: "fast" });
    assert.equal(picked.defaultProfile, "fast");
    assert.equal(profileFor(picked, null).name, "fast");
    assert.equal(profileFor(picked, "careful").name, "careful");
    const forced = await load(root, { forceProfile: "careful" });
    assert.equal(forced.forcedProfile, "careful");
    assert.equal(profileFor(forced, null).name, "careful");
    assert.equal(profileFor(forced, "fast").name, "careful");
    assert.equal(profileFor(forced, "default").name, "careful");
  });

  test("unknown profiles are ConfigErrors naming the name, the source and the known profiles", async () => {
    const root = project({ "aiython.toml": file });
    const config = await load(root);
    assert.equal(
      await configError(() => profileFor(config, "fsat")),
      `the directive: unknown profile "fsat"; known profiles: default, fast, careful; define it under [profiles.NAME] in ${path.join(root, "aiython.toml")}`,
    );
    assert.match(await configError(() => load(root, { profile: "nope" })), /^--profile: unknown profile "nope"; known profiles: default, fast, careful/);
    assert.match(await configError(() => load(root, { forceProfile: "nope" })), /^--force-profile: unknown profile "nope"/);
    assert.match(await configError(() => load(project({}), { profile: "fast" })), /no aiython\.toml was found/);
  });

  test("--profile with --force-profile is refused", async () => {
    const message = await configError(() => load(project({ "aiython.toml": file }), { profile: "fast", forceProfile: "careful" }));
    assert.match(message, /--profile and --force-profile cannot be used together/);
  });

  test("--model replaces the model of the selected profile only", async () => {
    const root = project({ "aiython.toml": file });
    const byDefault = await load(root, { model: "gemini/gemini-2.5-pro" });
    assert.equal(byDefault.profiles.get("default")!.routes[0].id, "gemini/gemini-2.5-pro");
    assert.equal(byDefault.profiles.get("default")!.routes[0].apiBase, "https://generativelanguage.googleapis.com/v1beta/openai/");
    assert.equal(byDefault.profiles.get("fast")!.routes[0].id, "openai/gpt-4.1-nano");
    const byProfile = await load(root, { profile: "fast", model: "ollama/qwen3" });
    assert.equal(byProfile.profiles.get("fast")!.routes[0].id, "ollama/qwen3");
    assert.equal(byProfile.profiles.get("default")!.routes[0].id, "openai/gpt-4.1-mini");
  });

  test("a bare --model id stays on the profile's own server", async () => {
    const root = project({ "aiython.toml": toml('model = "llama3"', 'api_base = "http://127.0.0.1:8080/v1"') });
    const [route] = (await load(root, { model: "qwen3" })).profiles.get("default")!.routes;
    assert.deepEqual([route.provider, route.model, route.apiBase], ["custom", "qwen3", "http://127.0.0.1:8080/v1"]);
  });
});
