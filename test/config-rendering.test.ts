// Configuration (SPEC §7, §3.4), what is shown of it: `config show`, the --explain summary, and
// that a key appears in no rendering, serialisation or error message. Every test runs in its own
// temporary project with a `.git`.

import assert from "node:assert/strict";
import path from "node:path";
import { describe, test } from "node:test";
import { inspect } from "node:util";
import { configSummaryForExplain, profileFor, renderConfigShow, type ConfigInputs } from "../src/config/index.js";
import { FAKE_KEY, configError, load, project, toml } from "./support/config-loading.js";

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
      assert.ok(
        [...config.profiles.values()].some((p) => p.routes.some((r) => r.apiKey === FAKE_KEY)),
        "the key must be loaded",
      );
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
