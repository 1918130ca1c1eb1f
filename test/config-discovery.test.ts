// Configuration (SPEC §7), where it comes from: discovery of aiython.toml (the script's folder, then
// parents up to the one holding `.git`), --config, the environment-only form (AIYTHON_MODEL,
// OPENAI_BASE_URL, --model), and a run with no model anywhere. Every test runs in its own temporary
// project with a `.git`.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { configSummaryForExplain, renderConfigShow } from "../src/config/index.js";
import { FAKE_KEY, configError, load, project, toml } from "./support/config-loading.js";

describe("discovery", () => {
  test("finds aiython.toml in the script's folder before one in a parent", async () => {
    const root = project({
      "aiython.toml": toml('prompt = "root"'),
      "app/aiython.toml": toml('prompt = "app"'),
      "app/main.py": "",
    });
    const config = await load(root, { scriptPath: "app/main.py" });
    assert.equal(config.path, path.join(root, "app", "aiython.toml"));
    assert.equal(config.projectRoot, path.join(root, "app"));
    assert.equal(config.profiles.get("default")?.prompt, "app");
  });

  test("walks up to the nearest parent and searches the folder holding .git", async () => {
    const root = project({ "aiython.toml": toml('prompt = "root"'), "a/b/c/main.py": "" });
    const config = await load(path.join(root, "a"), { scriptPath: "b/c/main.py" });
    assert.equal(config.path, path.join(root, "aiython.toml"));
  });

  test("stops at the first folder holding .git (a folder or a worktree's .git file)", async () => {
    for (const marker of ["dir", "file"] as const) {
      const outer = project({ "aiython.toml": toml(), "repo/main.py": "" }, { git: false });
      if (marker === "dir") mkdirSync(path.join(outer, "repo", ".git"));
      else writeFileSync(path.join(outer, "repo", ".git"), "gitdir: elsewhere\n");
      const config = await load(outer, { scriptPath: "repo/main.py" });
      assert.equal(config.path, null, `.git ${marker} must stop discovery`);
      assert.equal(config.projectRoot, path.join(outer, "repo"));
    }
  });

  test("starts at cwd when there is no script (-c, stdin, -m)", async () => {
    const root = project({ "aiython.toml": toml('prompt = "here"'), "sub/.keep": "" });
    const config = await load(path.join(root, "sub"), { scriptPath: null });
    assert.equal(config.path, path.join(root, "aiython.toml"));
  });

  test("--config picks exactly that file, relative to cwd, without discovery", async () => {
    const root = project({ "aiython.toml": toml('prompt = "discovered"'), "conf/other.toml": toml('prompt = "chosen"') });
    const config = await load(root, { configFile: "conf/other.toml" });
    assert.equal(config.path, path.join(root, "conf", "other.toml"));
    assert.equal(config.projectRoot, path.join(root, "conf"));
    assert.equal(config.profiles.get("default")?.prompt, "chosen");
  });

  test("--config naming a missing file is a ConfigError naming it", async () => {
    const root = project({});
    const message = await configError(() => load(root, { configFile: "nope.toml" }));
    assert.match(message, /^--config: nope\.toml: no such file/);
  });
});

describe("environment-only form", () => {
  test("AIYTHON_MODEL configures the default profile with defaults everywhere else", async () => {
    const root = project({});
    const config = await load(root, { env: { AIYTHON_MODEL: "openai/gpt-4.1-mini", OPENAI_API_KEY: FAKE_KEY } });
    assert.equal(config.path, null);
    assert.equal(config.projectRoot, root);
    assert.equal(config.modelConfigured, true);
    const profile = config.profiles.get("default")!;
    assert.deepEqual([profile.timeoutSeconds, profile.maxRounds, profile.maxConcurrency, profile.journal, profile.cache], [120, 16, 8, true, true]);
    assert.equal(profile.permissions.size, 6);
    assert.equal(profile.routes[0].apiBase, "https://api.openai.com/v1");
    assert.equal(profile.routes[0].apiKey, FAKE_KEY);
  });

  test("a bare id with OPENAI_BASE_URL is a custom route keyed by OPENAI_API_KEY, key optional", async () => {
    const root = project({});
    const env = { AIYTHON_MODEL: "gpt-4.1-mini", OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" };
    const [bare] = (await load(root, { env })).profiles.get("default")!.routes;
    assert.deepEqual([bare.provider, bare.model, bare.apiBase, bare.apiKey], ["custom", "gpt-4.1-mini", "http://127.0.0.1:8080/v1", null]);
    assert.equal(JSON.parse(renderConfigShow(await load(root, { env }))).profiles.default.routes[0].credential_configured, true);
    const [keyed] = (await load(root, { env: { ...env, OPENAI_API_KEY: FAKE_KEY } })).profiles.get("default")!.routes;
    assert.equal(keyed.apiKey, FAKE_KEY);
  });

  test("OPENAI_BASE_URL applies to openai/ ids but not to other providers", async () => {
    const root = project({});
    const base = "http://127.0.0.1:9000/v1";
    const openai = await load(root, { env: { AIYTHON_MODEL: "openai/gpt-4.1", OPENAI_BASE_URL: base } });
    assert.equal(openai.profiles.get("default")!.routes[0].apiBase, base);
    const gemini = await load(root, { env: { AIYTHON_MODEL: "gemini/gemini-2.5-flash", OPENAI_BASE_URL: base } });
    assert.equal(gemini.profiles.get("default")!.routes[0].apiBase, "https://generativelanguage.googleapis.com/v1beta/openai/");
  });

  test("--model wins over AIYTHON_MODEL", async () => {
    const root = project({});
    const config = await load(root, { model: "ollama/qwen3", env: { AIYTHON_MODEL: "openai/gpt-4.1" } });
    assert.equal(config.profiles.get("default")!.routes[0].id, "ollama/qwen3");
  });

  test("a bare id without OPENAI_BASE_URL says how to fix it", async () => {
    const root = project({});
    const message = await configError(() => load(root, { env: { AIYTHON_MODEL: "gpt-4.1-mini" } }));
    assert.match(message, /^AIYTHON_MODEL: the model id has no known provider prefix .* or set OPENAI_BASE_URL/);
    const flag = await configError(() => load(root, { model: "gpt-4.1-mini", env: {} }));
    assert.match(flag, /^--model: /);
  });

  test("OPENAI_BASE_URL with credentials in it is refused without echoing it", async () => {
    const root = project({});
    const message = await configError(() => load(root, { env: { AIYTHON_MODEL: "x", OPENAI_BASE_URL: `https://u:${FAKE_KEY}@h.example/v1` } }));
    assert.match(message, /^OPENAI_BASE_URL: the URL contains credentials/);
    assert.ok(!message.includes(FAKE_KEY));
  });
});

describe("no model anywhere", () => {
  test("neither file nor environment: modelConfigured false, default profile still present", async () => {
    const root = project({});
    const config = await load(root);
    assert.equal(config.modelConfigured, false);
    assert.deepEqual(config.profiles.get("default")?.routes, []);
    assert.deepEqual(configSummaryForExplain(config).profiles, {});
    assert.equal(JSON.parse(renderConfigShow(config)).source, "none");
  });

  test("a file without any model: modelConfigured false, AIYTHON_MODEL is not consulted", async () => {
    const root = project({ "aiython.toml": toml('prompt = "be brief"', "[profiles.fast]", "timeout = 5") });
    const config = await load(root, { env: { AIYTHON_MODEL: "openai/gpt-4.1" } });
    assert.equal(config.modelConfigured, false);
    assert.deepEqual([...config.profiles.keys()], ["default", "fast"]);
  });

  test("a model only in a named profile configures recovery; the default profile has no routes", async () => {
    const root = project({ "aiython.toml": toml("[profiles.fast]", 'model = "openai/gpt-4.1-nano"') });
    const config = await load(root);
    assert.equal(config.modelConfigured, true);
    assert.deepEqual(config.profiles.get("default")?.routes, []);
    assert.equal(config.profiles.get("fast")?.routes[0].id, "openai/gpt-4.1-nano");
  });
});
