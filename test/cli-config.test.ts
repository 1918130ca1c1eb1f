// End-to-end: `aiython config show` and configuration errors through the built CLI (SPEC §7).

import assert from "node:assert/strict";
import { test } from "node:test";
import { aiython, cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const KEY = "sk-test-DO-NOT-PRINT-5f1c";

function project(toml: string | null): string {
  return tempProject({ "hello.py": "print('hello')\n", ...(toml !== null ? { "aiython.toml": toml } : {}) }, { prefix: "aiython-config-" });
}

test("config show: the environment-only form, with the key never printed", async () => {
  const dir = project(null);
  const result = await aiython(["config", "show"], { cwd: dir, env: cleanEnv({ AIYTHON_MODEL: "openai/gpt-4.1-mini", OPENAI_API_KEY: KEY }) });
  assert.equal(result.exitCode, 0);
  const shown = JSON.parse(result.stdout);
  assert.equal(shown.model_configured, true);
  assert.equal(shown.profiles.default.routes[0].id, "openai/gpt-4.1-mini");
  assert.equal(shown.profiles.default.routes[0].credential_configured, true);
  assert.ok(!result.stdout.includes(KEY) && !result.stderr.includes(KEY));
});

test("config show: aiython.toml found from the working folder", async () => {
  const dir = project('version = 3\nmodel = "ollama/llama3.1"\n\n[profiles.fast]\ntimeout = 5\n');
  const result = await aiython(["config", "show"], { cwd: dir, env: cleanEnv() });
  assert.equal(result.exitCode, 0);
  const shown = JSON.parse(result.stdout);
  assert.match(shown.path, /aiython\.toml$/);
  assert.equal(shown.profiles.fast.timeout, 5);
});

test("a configuration error stops the run before the program starts: exit 78, dotted key", async () => {
  const dir = project('version = 3\nmodel = "openai/gpt-4.1-mini"\n\n[profiles.fast]\ntimeout = "soon"\n');
  const result = await aiython(["hello.py"], { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: KEY }) });
  assert.equal(result.exitCode, 78);
  assert.equal(result.stdout, "", "the program did not run");
  assert.match(result.stderr, /^aiython: .*aiython\.toml.*profiles\.fast\.timeout/);
  assert.ok(!result.stderr.includes(KEY));
});

test("an unknown config subcommand", async () => {
  const result = await aiython(["config", "edit"], { env: cleanEnv() });
  assert.equal(result.exitCode, 2);
  assert.match(result.stderr, /use: aiython config show/);
});
