// Configuration (SPEC §7): discovery, --config, the environment-only form, providers, route lists,
// profiles and their precedence (§3.3), credentials, `config show`, and the schema errors driven by
// test/fixtures/config/invalid/*.toml — each fixture opens with `# expect: TEXT` lines that the
// ConfigError message must contain. Every test runs in its own temporary project with a `.git`.

import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { execFileSync } from "node:child_process";
import { inspect } from "node:util";
import { ConfigError, ExitStatus } from "../src/errors.js";
import {
  configSummaryForExplain,
  loadConfig,
  profileFor,
  renderConfigShow,
  type ConfigInputs,
  type ResolvedConfig,
} from "../src/config/index.js";
import { parseDotenv } from "../src/config/dotenv.js";
import { CONFIG_SCHEMA } from "../src/config/schema.js";
import { tempProject } from "./support/temp-project.js";

const FAKE_KEY = "sk-test-FAKEKEY-4f9c2e7a1b";
const FIXTURES = path.join(import.meta.dirname, "fixtures", "config", "invalid");

/** A temporary folder with the given files (path → text); `.git/` is created unless `git: false`. */
function project(files: Record<string, string>, options: { git?: boolean } = {}): string {
  return tempProject(files, { ...options, prefix: "aiython-config-" });
}

function load(cwd: string, overrides: Partial<ConfigInputs> = {}): Promise<ResolvedConfig> {
  return loadConfig({ scriptPath: "main.py", cwd, env: {}, ...overrides });
}

/** Runs `fn`, asserts it throws a ConfigError (exit 78), and returns the message. */
async function configError(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    assert.equal(error.exitStatus, ExitStatus.config);
    return error.message;
  }
  assert.fail("expected a ConfigError");
}

const toml = (...lines: string[]) => ["version = 3", ...lines, ""].join("\n");

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

describe("schema errors (fixtures)", () => {
  const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith(".toml"));
  test("there are fixtures", () => assert.ok(fixtures.length >= 30));
  for (const fixture of fixtures) {
    test(fixture, async () => {
      const text = readFileSync(path.join(FIXTURES, fixture), "utf8");
      const expected = [...text.matchAll(/^# expect: (.*)$/gm)].map((m) => m[1]);
      assert.ok(expected.length > 0, `${fixture} has no "# expect:" line`);
      const root = project({ "aiython.toml": text, "main.py": "" });
      const message = await configError(() => load(root, { env: { OPENAI_API_KEY: FAKE_KEY } }));
      for (const part of expected) assert.ok(message.includes(part), `message:\n  ${message}\nlacks:\n  ${part}`);
      assert.ok(!/sk-test-/.test(message), `message echoes a secret-like value: ${message}`);
    });
  }
});

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
    const message = await configError(() =>
      load(root, { env: { AIYTHON_MODEL: "x", OPENAI_BASE_URL: `https://u:${FAKE_KEY}@h.example/v1` } }),
    );
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

describe("profiles", () => {
  const file = toml(
    'model = "openai/gpt-4.1-mini"',
    'api_base = "https://proxy.example/v1"',
    'prompt = "top"',
    "timeout = 60",
    'permissions = ["read_code"]',
    "capabilities = { vision = { model = \"openai/gpt-4.1\" } }",
    "",
    "[profiles.fast]",
    'model = "openai/gpt-4.1-nano"',
    "max_rounds = 4",
    "capabilities = { embedding = { model = \"openai/text-embedding-3-small\" } }",
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
    assert.deepEqual([small.provider, small.model, small.apiBase, small.apiKeyEnv, small.keySource], ["custom", "qwen3:0.6b", "http://127.0.0.1:8080/v1", "LOCAL_KEY", "environment"]);
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

describe("credentials", () => {
  test("env_file supplies keys the environment lacks; the environment wins", async () => {
    const root = project({
      "aiython.toml": toml('model = ["openai/gpt-4.1", "openrouter/x/y"]', 'env_file = ".env"'),
      ".env": `# keys\nexport OPENAI_API_KEY="from-file-openai"\nOPENROUTER_API_KEY=from-file-router # note\n`,
    });
    const fromFile = (await load(root)).profiles.get("default")!.routes;
    assert.deepEqual(fromFile.map((r) => [r.apiKey, r.keySource]), [["from-file-openai", "env_file"], ["from-file-router", "env_file"]]);
    const fromEnv = (await load(root, { env: { OPENAI_API_KEY: FAKE_KEY } })).profiles.get("default")!.routes;
    assert.deepEqual([fromEnv[0].apiKey, fromEnv[0].keySource], [FAKE_KEY, "environment"]);
  });

  test(".aiython/credentials.env is consulted last", async () => {
    const root = project({
      "aiython.toml": toml('model = "gemini/gemini-2.5-flash"', 'env_file = ".env"'),
      ".env": "OTHER=1\n",
      ".aiython/credentials.env": "GEMINI_API_KEY=stored-by-setup\n",
    });
    const [route] = (await load(root)).profiles.get("default")!.routes;
    assert.deepEqual([route.apiKey, route.keySource], ["stored-by-setup", "credentials_file"]);
  });

  test("an env_file that does not exist or cannot be read is a configuration error naming it", async () => {
    const missing = project({ "aiython.toml": toml('model = "openai/gpt-4.1"', 'env_file = "missing.env"') });
    assert.match(
      await configError(() => load(missing, { env: { OPENAI_API_KEY: FAKE_KEY } })),
      /^aiython\.toml: env_file: the file .*missing\.env does not exist; create it with KEY=VALUE lines, or remove env_file$/,
    );
    const inProfile = project({ "aiython.toml": toml('model = "openai/gpt-4.1"', "[profiles.fast]", 'env_file = "fast.env"') });
    assert.match(await configError(() => load(inProfile)), /^aiython\.toml: profiles\.fast\.env_file: the file .*fast\.env does not exist/);
    const folder = project({ "aiython.toml": toml('model = "openai/gpt-4.1"', 'env_file = "keys"') });
    mkdirSync(path.join(folder, "keys"));
    assert.match(await configError(() => load(folder)), /^aiython\.toml: env_file: cannot read .*keys \(it is a folder\); fix its permissions/);
  });

  test("a route with no key loads, and config show and --explain say credential_configured: false", async () => {
    const root = project({ "aiython.toml": toml('model = "openai/gpt-4.1"') });
    const config = await load(root);
    assert.equal(configSummaryForExplain(config).profiles.default.credential_configured, false);
    const route = JSON.parse(renderConfigShow(config)).profiles.default.routes[0];
    assert.deepEqual([route.credential_configured, route.credential_source], [false, "none"]);
  });

  test("an env_file that links outside the project is refused", async () => {
    const outside = project({ "secret.env": "OPENAI_API_KEY=x\n" });
    const root = project({ "aiython.toml": toml('model = "openai/gpt-4.1"', 'env_file = "linked.env"') });
    symlinkSync(path.join(outside, "secret.env"), path.join(root, "linked.env"));
    assert.match(await configError(() => load(root)), /^aiython\.toml: env_file: the file must be inside the project folder/);
  });

  test("a malformed env_file line is named by file and line, never by its text", async () => {
    const root = project({
      "aiython.toml": toml('model = "openai/gpt-4.1"', 'env_file = ".env"'),
      ".env": `OK=1\n${FAKE_KEY}\n`,
    });
    const message = await configError(() => load(root));
    assert.equal(message, ".env:2: not a KEY=VALUE line; write KEY=VALUE, one per line");
  });
});

describe("dotenv subset", () => {
  test("export prefix, quotes, escapes, comments, no interpolation, last value wins", () => {
    const values = parseDotenv(
      [
        "# comment",
        "",
        "export A=plain value # trailing",
        "B = 'single $A # kept'",
        'C="line\\nbreak \\"quoted\\""',
        "D=$A",
        "E=",
        "A=again",
        "F=x#not-a-comment",
      ].join("\n"),
      "t.env",
    );
    assert.deepEqual(Object.fromEntries(values), {
      A: "again",
      B: "single $A # kept",
      C: 'line\nbreak "quoted"',
      D: "$A",
      E: "",
      F: "x#not-a-comment",
    });
  });

  test("an unclosed quote is an error naming the line", () => {
    assert.throws(() => parseDotenv('A=1\nB="open\n', "t.env"), /^ConfigError: t\.env:2: unclosed quote/);
  });
});

describe("rendering", () => {
  test("config show lists the resolved profiles as JSON", async () => {
    const root = project({ "aiython.toml": toml('model = "openai/gpt-4.1-mini"', "[profiles.fast]", "timeout = 5") });
    const shown = JSON.parse(renderConfigShow(await load(root, { profile: "fast", env: { OPENAI_API_KEY: FAKE_KEY } })));
    assert.equal(shown.path, path.join(root, "aiython.toml"));
    assert.equal(shown.default_profile, "fast");
    assert.equal(shown.profiles.fast.timeout, 5);
    assert.deepEqual([shown.profiles.default.cache, shown.profiles.fast.cache], [true, true]);
    assert.deepEqual(shown.profiles.default.routes[0], {
      id: "openai/gpt-4.1-mini",
      provider: "openai",
      model: "gpt-4.1-mini",
      api_base: "https://api.openai.com/v1",
      api_key_env: "OPENAI_API_KEY",
      credential_required: true,
      credential_configured: true,
      credential_source: "environment",
      price: null,
      rate_limit: null,
    });
  });

  test("the --explain summary matches SPEC §3.4's shape, path relative to cwd when asked", async () => {
    const root = project({ "aiython.toml": toml('model = "openai/gpt-4.1-mini"') });
    const config = await load(root, { env: { OPENAI_API_KEY: FAKE_KEY } });
    assert.deepEqual(configSummaryForExplain(config, { cwd: root }), {
      path: "aiython.toml",
      default_profile: "default",
      profiles: { default: { model: "openai/gpt-4.1-mini", credential_configured: true } },
    });
  });
});

describe("secrets are never echoed", () => {
  test("a recognisable key appears in no rendering, serialisation or provoked error", async () => {
    const env = { OPENAI_API_KEY: FAKE_KEY, OPENROUTER_API_KEY: FAKE_KEY, GEMINI_API_KEY: FAKE_KEY, CUSTOM_KEY: FAKE_KEY, AIYTHON_MODEL: "openai/x" };
    const root = project({
      "aiython.toml": toml(
        'model = ["openai/gpt-4.1", "openrouter/a/b", "gemini/c", { model = "d", api_base = "http://127.0.0.1:1/v1", api_key_env = "CUSTOM_KEY" }]',
        "[profiles.fast]",
        'model = "gemini/gemini-2.5-flash"',
      ),
    });
    const outputs: string[] = [];
    for (const config of [await load(root, { env }), await load(project({}), { env })]) {
      assert.ok([...config.profiles.values()].some((p) => p.routes.some((r) => r.apiKey === FAKE_KEY)), "the key must be loaded");
      outputs.push(renderConfigShow(config), JSON.stringify(configSummaryForExplain(config)), inspect(config, { depth: 10 }));
      outputs.push(JSON.stringify([...config.profiles.values()].map((p) => p.routes)));
      outputs.push(await configError(() => profileFor(config, "missing")));
    }
    const errorCases: Array<[Record<string, string>, Partial<ConfigInputs>]> = [
      [{ "aiython.toml": toml(`api_base = "https://u:${FAKE_KEY}@h/v1"`) }, {}],
      [{ "aiython.toml": toml(`api_key_env = "${FAKE_KEY}"`) }, {}],
      [{ "aiython.toml": toml(`model = "${FAKE_KEY}"`) }, {}],
      [{ "aiython.toml": toml(`timeout = "${FAKE_KEY}"`) }, {}],
      [{ "aiython.toml": toml(`permissions = ["${FAKE_KEY}"]`) }, {}],
      [{ "aiython.toml": toml(`[profiles.fast]`, `api_key = "${FAKE_KEY}"`) }, {}],
      [{ "aiython.toml": toml(`${FAKE_KEY}-pasted-as-a-bare-key-name = 1`) }, {}],
      [{ "aiython.toml": `version = 3\nprompt = "${FAKE_KEY}\n` }, {}],
      // env_file is read only for keys the environment lacks, so this case runs without one.
      [{ "aiython.toml": toml('model = "openai/x"', 'env_file = ".env"'), ".env": `${FAKE_KEY}\n` }, { env: {} }],
      [{}, { env: { ...env, AIYTHON_MODEL: FAKE_KEY } }],
      [{}, { env: { ...env, AIYTHON_MODEL: "openai/x", OPENAI_BASE_URL: `http://h/v1?token=${FAKE_KEY}` } }],
    ];
    for (const [files, inputs] of errorCases) outputs.push(await configError(() => load(project(files), { env, ...inputs })));
    for (const output of outputs) assert.ok(!output.includes(FAKE_KEY), `the key leaked into: ${output}`);
    assert.ok(!outputs.some((o) => o.includes("FAKEKEY")), "no fragment of the key either");
  });
});

describe("the schema and the bundle", () => {
  test("the schema is valid draft-07 under ajv's strict mode (start-up skips this check)", async () => {
    const { Ajv } = (await import("ajv")).default;
    const ajv = new Ajv({ strict: true });
    assert.equal(ajv.validateSchema(CONFIG_SCHEMA), true, ajv.errorsText(ajv.errors));
    assert.doesNotThrow(() => ajv.compile(CONFIG_SCHEMA));
  });

  test("loading works from an esbuild bundle split like build.mjs (the standalone validator in place)", async () => {
    const { build } = await import("esbuild");
    // @ts-expect-error: a build script in JavaScript, without declarations
    const { loadSpecs, standaloneValidatorsPlugin } = await import("../build/standalone-validators.mjs");
    const configSpecs = (await loadSpecs()).filter((spec: { module: string }) => spec.module.startsWith("src/config/"));
    const out = project({});
    const entry = path.join(out, "entry.ts");
    writeFileSync(
      entry,
      `import { loadConfig, renderConfigShow } from ${JSON.stringify(path.resolve("src/config/index.ts"))};\n` +
        `const config = await loadConfig({ scriptPath: null, cwd: process.cwd(), env: {} });\n` +
        `process.stdout.write(renderConfigShow(config));\n`,
    );
    await build({
      entryPoints: [entry],
      outdir: path.join(out, "dist"),
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "silent",
      plugins: [standaloneValidatorsPlugin(configSpecs)],
    });
    const root = project({ "aiython.toml": toml('model = "ollama/qwen3"', "timeout = 9") });
    const shown = JSON.parse(execFileSync(process.execPath, [path.join(out, "dist", "entry.mjs")], { cwd: root, encoding: "utf8" }));
    assert.equal(shown.profiles.default.routes[0].id, "ollama/qwen3");
    assert.equal(shown.profiles.default.timeout, 9);
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
    assert.deepEqual(routes.map((r) => r.rateLimit), [{ requestsPerMinute: 60, tokensPerMinute: 90000 }, { requestsPerMinute: 5 }]);
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
