// Configuration (SPEC §7), the schema: the errors driven by test/fixtures/config/invalid/*.toml —
// each fixture opens with `# expect: TEXT` lines that the ConfigError message must contain — the
// schema's validity under ajv's strict mode, and loading from an esbuild bundle split like
// build.mjs. Every test runs in its own temporary project with a `.git`.

import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { execFileSync } from "node:child_process";
import { CONFIG_SCHEMA } from "../src/config/schema.js";
import { FAKE_KEY, configError, load, project, toml } from "./support/config-loading.js";

const FIXTURES = path.join(import.meta.dirname, "fixtures", "config", "invalid");

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
