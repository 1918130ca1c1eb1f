// Configuration (SPEC §7), credentials: keys from the environment, env_file and
// .aiython/credentials.env in that order, env_file errors, and the dotenv subset the files are
// read with. Every test runs in its own temporary project with a `.git`.

import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { configSummaryForExplain, renderConfigShow } from "../src/config/index.js";
import { parseDotenv } from "../src/config/dotenv.js";
import { FAKE_KEY, configError, load, project, toml } from "./support/config-loading.js";

describe("credentials", () => {
  test("env_file supplies keys the environment lacks; the environment wins", async () => {
    const root = project({
      "aiython.toml": toml('model = ["openai/gpt-4.1", "openrouter/x/y"]', 'env_file = ".env"'),
      ".env": `# keys\nexport OPENAI_API_KEY="from-file-openai"\nOPENROUTER_API_KEY=from-file-router # note\n`,
    });
    const fromFile = (await load(root)).profiles.get("default")!.routes;
    assert.deepEqual(
      fromFile.map((r) => [r.apiKey, r.keySource]),
      [
        ["from-file-openai", "env_file"],
        ["from-file-router", "env_file"],
      ],
    );
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
      ["# comment", "", "export A=plain value # trailing", "B = 'single $A # kept'", 'C="line\\nbreak \\"quoted\\""', "D=$A", "E=", "A=again", "F=x#not-a-comment"].join("\n"),
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
