// End-to-end: `aiython config show` and configuration errors through the built CLI (SPEC §7).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
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

test("config without a command, with an unknown one, or with extra words: exit 2 and what to type", async () => {
  const bare = await aiython(["config"], { env: cleanEnv() });
  assert.deepEqual([bare.exitCode, bare.stderr], [2, "aiython: config needs a command: aiython config show (to write aiython.toml: aiython setup)\n"]);
  const unknown = await aiython(["config", "edit"], { env: cleanEnv() });
  assert.deepEqual([unknown.exitCode, unknown.stderr], [2, "aiython: unknown config command 'edit'; use: aiython config show (to write aiython.toml: aiython setup)\n"]);
  const extra = await aiython(["config", "show", "x"], { env: cleanEnv() });
  assert.deepEqual([extra.exitCode, extra.stderr], [2, "aiython: config show takes no arguments, not 'x'; use: aiython config show\n"]);
});

test("an env_file that does not exist stops the run with exit 78 naming the file and the key", async () => {
  const dir = project('version = 3\nmodel = "openai/gpt-4.1-mini"\nenv_file = ".env.local"\n');
  const result = await aiython(["hello.py"], { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: KEY }) });
  assert.equal(result.exitCode, 78);
  assert.equal(result.stdout, "", "the program did not run");
  assert.equal(result.stderr, "aiython: aiython.toml: env_file: the file .env.local does not exist; create it with KEY=VALUE lines, or remove env_file\n");
});

test("an aiython.toml that is not UTF-8 is a configuration error naming the place, never the text (exit 78)", async () => {
  const dir = project(null);
  // 0xff cannot start a UTF-8 sequence; before, it was read as U+FFFD and ended up in the model id.
  fs.writeFileSync(path.join(dir, "aiython.toml"), Buffer.concat([Buffer.from('version = 3\nmodel = "openai/gpt-'), Buffer.from([0xff]), Buffer.from('4"\n')]));
  for (const args of [["hello.py"], ["config", "show"]]) {
    const result = await aiython(args, { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: KEY }) });
    assert.equal(result.exitCode, 78, result.stderr);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, "aiython: aiython.toml:2:21: not valid UTF-8 (byte 0xff); TOML files are UTF-8: save the file in that encoding\n");
  }
});
