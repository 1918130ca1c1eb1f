// `aiython setup` (SPEC §7) through the built CLI without a terminal (the prompts are driven in
// tmux by test/console-tmux.test.ts): the route written into a new or an existing aiython.toml
// (comments and other keys kept), a piped key stored 0600 and never printed, .aiython/ ignored
// by git, `--check` reporting what the loopback server supports and saving nothing when it fails;
// then the next run uses what setup wrote. The edits themselves are unit-tested below.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { editConfigText } from "../src/config/edit-config.js";
import { ConfigError } from "../src/errors.js";
import { modelChoices, searchModels } from "../src/setup/model-search.js";
import { startStandInModel } from "../examples/demo/stand-in-model.js";
import { startLoopbackModel, type ScriptedReply } from "./support/loopback-model.js";
import { TICKETS_STDOUT } from "./support/observe-e2e.js";
import { aiython, cleanEnv, ROOT } from "./support/run-cli.js";
import { makeUnwritable } from "./support/journal-helpers.js";
import { tempProject } from "./support/temp-project.js";

const KEY = "sk-setup-TYPED-KEY-91fe27";

function ticketsProject(files: Record<string, string> = {}): string {
  return tempProject({ "tickets.py": { copy: path.join(ROOT, "examples", "tickets.py") }, ...files }, { prefix: "aiython-setup-" });
}

const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name), "utf8");

describe("setup by flags against the loopback model", () => {
  test("writes a working aiython.toml: --check reports the server, the next run of tickets.py uses it", async () => {
    const model = await startStandInModel();
    try {
      const dir = ticketsProject();
      const setup = await aiython(["setup", "--base-url", model.url, "--model", "loopback-model", "--check"], { cwd: dir, env: cleanEnv() });
      assert.equal(setup.exitCode, 0, setup.stderr);
      assert.match(setup.stdout, /tool calls: +yes/);
      assert.match(setup.stdout, /tool_choice "required": +honoured/);
      assert.match(setup.stdout, /parallel tool calls: +yes \(2 in one reply\)/);
      assert.match(setup.stdout, /calls as JSON in content: +no/);
      assert.match(setup.stdout, /Created aiython\.toml: top level model = "loopback-model"/);
      assert.equal(read(dir, "aiython.toml"), `version = 3\nmodel = "loopback-model"\napi_base = "${model.url}"\n`);
      assert.equal(read(dir, ".gitignore"), ".aiython/\n");
      const again = await aiython(["setup", "--check"], { cwd: dir, env: cleanEnv() });
      assert.equal(again.exitCode, 0, again.stderr);
      assert.match(again.stdout, /^Checking .* with model loopback-model/);
      const run = await aiython(["tickets.py"], { cwd: dir, env: cleanEnv() });
      assert.equal(run.stderr, "");
      assert.equal(run.stdout, TICKETS_STDOUT);
    } finally {
      await model.close();
    }
  });

  test("an existing file keeps its comments and other keys; a piped --set-key is stored 0600 and never shown", async () => {
    const model = await startStandInModel();
    try {
      const original = '# the project\nversion = 3\nmodel = "openai/gpt-4.1-mini"  # was\ntimeout = 60\n\n[profiles.fast]\n# kept\nmodel = "ollama/llama3.1"\n';
      const dir = ticketsProject({ "aiython.toml": original, ".gitignore": "node_modules/\n" });
      const setup = await aiython(["setup", "--provider", "custom", "--base-url", model.url, "--model", "loopback-model", "--api-key-env", "LOCAL_KEY", "--set-key"], {
        cwd: dir,
        env: cleanEnv(),
        input: `${KEY}\n`,
      });
      assert.equal(setup.exitCode, 0, setup.stderr);
      assert.equal(
        read(dir, "aiython.toml"),
        `# the project\nversion = 3\nmodel = "loopback-model"  # was\ntimeout = 60\napi_base = "${model.url}"\napi_key_env = "LOCAL_KEY"\n\n[profiles.fast]\n# kept\nmodel = "ollama/llama3.1"\n`,
      );
      const credentials = path.join(dir, ".aiython", "credentials.env");
      assert.equal(fs.readFileSync(credentials, "utf8"), `LOCAL_KEY="${KEY}"\n`);
      assert.equal(fs.statSync(credentials).mode & 0o777, 0o600);
      assert.equal(fs.statSync(path.dirname(credentials)).mode & 0o777, 0o700);
      assert.equal(read(dir, ".gitignore"), "node_modules/\n.aiython/\n");
      assert.ok(!setup.stdout.includes(KEY) && !setup.stderr.includes(KEY));
      const run = await aiython(["tickets.py"], { cwd: dir, env: cleanEnv() });
      assert.equal(run.stdout, TICKETS_STDOUT, run.stderr);
      const chats = model.requests.filter((r) => r.path === "/v1/chat/completions");
      assert.ok(chats.length > 0 && chats.every((r) => r.headers.authorization === `Bearer ${KEY}`), "the run sent the stored key");
    } finally {
      await model.close();
    }
  });

  test("a profile and a capability go into their own sections", async () => {
    const dir = ticketsProject({ "aiython.toml": 'version = 3\nmodel = "openai/gpt-4.1-mini"\n' });
    const profile = await aiython(["setup", "--profile", "local", "--base-url", "http://127.0.0.1:8080/v1", "--model", "qwen3"], { cwd: dir, env: cleanEnv() });
    assert.equal(profile.exitCode, 0, profile.stderr);
    const vision = await aiython(["setup", "--capability", "vision", "--model", "openai/gpt-4.1"], { cwd: dir, env: cleanEnv() });
    assert.equal(vision.exitCode, 0, vision.stderr);
    assert.equal(
      read(dir, "aiython.toml"),
      'version = 3\nmodel = "openai/gpt-4.1-mini"\n\n[profiles.local]\nmodel = "qwen3"\napi_base = "http://127.0.0.1:8080/v1"\n\n[capabilities.vision]\nmodel = "openai/gpt-4.1"\n',
    );
    const shown = JSON.parse((await aiython(["config", "show"], { cwd: dir, env: cleanEnv() })).stdout);
    assert.equal(shown.profiles.local.routes[0].api_base, "http://127.0.0.1:8080/v1");
  });

  test("a new model keeps the file's server: unprefixed it stays, a provider prefix alone is refused, an explicit switch is said", async () => {
    const local = 'version = 3\nmodel = "llama3"\napi_base = "http://127.0.0.1:8080/v1"\napi_key_env = "LOCAL_KEY"\n';
    const dir = ticketsProject({ "aiython.toml": local });
    const prefixed = await aiython(["setup", "--model", "openai/gpt-4.1"], { cwd: dir, env: cleanEnv() });
    assert.equal(prefixed.exitCode, 2);
    assert.equal(
      prefixed.stderr,
      'aiython: aiython.toml sends requests to api_base = "http://127.0.0.1:8080/v1"; --model openai/gpt-4.1 would send them to OpenAI (https://api.openai.com/v1) instead. To switch, add --provider openai; to keep the server, give the model without the prefix: --model gpt-4.1\n',
    );
    assert.equal(read(dir, "aiython.toml"), local, "nothing written");
    const kept = await aiython(["setup", "--model", "qwen3"], { cwd: dir, env: cleanEnv() });
    assert.equal(kept.exitCode, 0, kept.stderr);
    assert.equal(read(dir, "aiython.toml"), 'version = 3\nmodel = "qwen3"\napi_base = "http://127.0.0.1:8080/v1"\napi_key_env = "LOCAL_KEY"\n');
    const switched = await aiython(["setup", "--provider", "openai", "--model", "gpt-4.1"], { cwd: dir, env: cleanEnv() });
    assert.equal(switched.exitCode, 0, switched.stderr);
    assert.match(switched.stdout, /\nRemoved api_base = "http:\/\/127\.0\.0\.1:8080\/v1": requests now go to https:\/\/api\.openai\.com\/v1\.\n/);
    assert.equal(read(dir, "aiython.toml"), 'version = 3\nmodel = "openai/gpt-4.1"\n');
  });

  test("a folder setup cannot write in: one line naming the file and the fix, exit 1, nothing left behind", async (t) => {
    const dir = ticketsProject();
    const undo = makeUnwritable(dir);
    if (!undo) return t.skip("this folder stays writable here");
    try {
      const ran = await aiython(["setup", "--model", "openai/gpt-4.1-mini"], { cwd: dir, env: cleanEnv() });
      assert.equal(ran.exitCode, 1);
      assert.match(
        ran.stderr,
        /^aiython: setup: cannot write aiython\.toml: (permission denied \(EACCES\)|operation not permitted \(EPERM\)|the file system is read-only \(EROFS\)); nothing was saved; run aiython setup in a folder you can write to, or name another file with --config PATH\n$/,
      );
      assert.doesNotMatch(ran.stderr, /internal error/);
    } finally {
      undo();
    }
    assert.deepEqual(fs.readdirSync(dir).sort(), [".git", "tickets.py"]);
  });

  test("--check that fails saves nothing: no new file, an existing one untouched, exit 1 with the reason", async () => {
    const model = await startLoopbackModel({ script: [{ status: 401 }, { status: 401 }] });
    try {
      const fresh = ticketsProject();
      const failed = await aiython(["setup", "--base-url", model.url, "--model", "m", "--check"], { cwd: fresh, env: cleanEnv() });
      assert.equal(failed.exitCode, 1);
      assert.match(failed.stdout, /Check failed: the provider requires an API key \(HTTP 401/);
      assert.match(failed.stderr, /^aiython: setup: nothing was saved/);
      assert.deepEqual(fs.readdirSync(fresh).sort(), [".git", "tickets.py"]);
      const kept = 'version = 3\nmodel = "openai/x"\n';
      const existing = ticketsProject({ "aiython.toml": kept });
      const again = await aiython(["setup", "--base-url", model.url, "--model", "m", "--check"], { cwd: existing, env: cleanEnv() });
      assert.equal(again.exitCode, 1);
      assert.equal(read(existing, "aiython.toml"), kept);
    } finally {
      await model.close();
    }
  });

  test('--check reports a server that rejects "required" and writes its calls as JSON in content', async () => {
    const replies: ScriptedReply[] = [
      { status: 400, rawBody: JSON.stringify({ object: "error", message: 'tool_choice = "required" is not supported!', type: "BadRequestError", param: null, code: 400 }) },
      { content: '{"name": "note", "arguments": {"n": 1}}' },
    ];
    const model = await startLoopbackModel({ script: replies });
    try {
      const dir = ticketsProject();
      const ran = await aiython(["setup", "--base-url", model.url, "--model", "small", "--check"], { cwd: dir, env: cleanEnv() });
      assert.equal(ran.exitCode, 0, ran.stderr);
      assert.match(ran.stdout, /tool_choice "required": +rejected; aiython asks this server with "auto"/);
      assert.match(ran.stdout, /parallel tool calls: +no \(one call per reply/);
      assert.match(ran.stdout, /calls as JSON in content: +yes/);
      assert.deepEqual(
        model.requests.map((r) => r.body?.tool_choice),
        ["required", "auto"],
      );
    } finally {
      await model.close();
    }
  });

  test("mistakes are exit 2 with the fix: no model without a terminal, unknown provider, bad names", async () => {
    const dir = ticketsProject();
    const cases: Array<[string[], RegExp]> = [
      [["setup"], /setup without a terminal needs --model ID and a provider/],
      [["setup", "--model", "llama3"], /needs --model ID and a provider/],
      [["setup", "--provider", "acme", "--model", "x"], /--provider: unknown provider 'acme'; use one of openai, openrouter, gemini, ollama, custom/],
      [["setup", "--profile", "default", "--model", "openai/x"], /--profile: 'default' is not a profile name setup can write/],
      [["setup", "--capability", "telepathy", "--model", "openai/x"], /--capability: unknown capability 'telepathy'/],
      [["setup", "--base-url", "ftp://h", "--model", "x"], /--base-url: expected an http:\/\/ or https:\/\/ URL/],
      [["setup", "--set-key", "--model", "openai/x"], /--set-key without a terminal reads the key from standard input, and it was empty/],
      [["setup", "stray"], /setup takes no arguments, not 'stray'/],
    ];
    for (const [args, expected] of cases) {
      const ran = await aiython(args, { cwd: dir, env: cleanEnv(), input: "" });
      assert.equal(ran.exitCode, 2, `${args.join(" ")}: ${ran.stderr}`);
      assert.match(ran.stderr, expected);
    }
    assert.deepEqual(fs.readdirSync(dir).sort(), [".git", "tickets.py"], "nothing was written");
  });
});

describe("editing aiython.toml", () => {
  const edit = (text: string | null, profile: string | null, capability: string | null, keys: Parameters<typeof editConfigText>[1]["keys"]) =>
    editConfigText(text, { profile, capability, keys }, "aiython.toml");

  test("a new file; a value replaced in place with its comment; a key removed", async () => {
    assert.equal(await edit(null, null, null, { model: "openai/gpt-4.1" }), 'version = 3\nmodel = "openai/gpt-4.1"\n');
    const text = '# top\nversion = 3\nmodel = "llama3"  # local\napi_base = "http://127.0.0.1:8080/v1"\nprompt = "be brief"\n';
    assert.equal(await edit(text, null, null, { model: "openai/gpt-4.1", api_base: null }), '# top\nversion = 3\nmodel = "openai/gpt-4.1"  # local\nprompt = "be brief"\n');
  });

  test("inline capability tables and route lists are edited where they are", async () => {
    const text = 'version = 3\nmodel = ["openai/a", { model = "openrouter/b" }]\ncapabilities = { vision = { model = "openai/gpt-4.1" } }\n';
    assert.equal(
      await edit(text, null, "vision", { model: "gemini/gemini-2.5-flash" }),
      'version = 3\nmodel = ["openai/a", { model = "openrouter/b" }]\ncapabilities = { vision = { model = "gemini/gemini-2.5-flash" } }\n',
    );
    assert.match(await edit(text, null, null, { model: "openai/c" }), /^version = 3\nmodel = "openai\/c"\ncapabilities = /);
  });

  test("a file that is not TOML, or an edit that would break the schema, is refused", async () => {
    await assert.rejects(
      edit("version = 3\nmodel = \n", null, null, { model: "x" }),
      (e) => e instanceof ConfigError && /not valid TOML, so setup leaves it alone/.test(e.message),
    );
    await assert.rejects(edit("version = 3\ntimeout = 5\n", "new one", null, { model: "x" }), (e) => e instanceof ConfigError && /profile name/.test(e.message));
  });
});

describe("model search by word prefixes", () => {
  const ids = ["gpt-4.1", "gpt-4.1-mini", "gpt-4o-mini", "o3-mini", "meta-llama/Llama-3.1-8B-Instruct", "text-embedding-3-small"];
  test("every query word starts a word of the id; ids whose first word matches come first", () => {
    assert.deepEqual(searchModels(ids, "gpt 4 mini"), ["gpt-4.1-mini", "gpt-4o-mini"]);
    assert.deepEqual(searchModels(ids, "mini"), ["gpt-4.1-mini", "gpt-4o-mini", "o3-mini"]);
    assert.deepEqual(searchModels(ids, "llama 8b"), ["meta-llama/Llama-3.1-8B-Instruct"]);
    assert.deepEqual(searchModels(ids, "Instr llama"), ["meta-llama/Llama-3.1-8B-Instruct"]);
    assert.deepEqual(searchModels(ids, "ini"), [], "prefixes, not substrings");
    assert.deepEqual(searchModels(ids, "  "), ids);
  });

  test("the picker also offers the typed id when the server does not list it", () => {
    const shown = (id: string) => `openai/${id}`;
    assert.deepEqual(modelChoices(ids, "gpt-5-nano", shown), [{ name: "openai/gpt-5-nano", value: "gpt-5-nano", description: "as typed: the server does not list it" }]);
    assert.deepEqual(
      modelChoices(ids, "gpt-4.1", shown).map((c) => c.value),
      ["gpt-4.1", "gpt-4.1-mini"],
      "a listed id is not offered twice",
    );
    assert.deepEqual(
      modelChoices(ids, "gpt 4 mini", shown).map((c) => c.value),
      ["gpt-4.1-mini", "gpt-4o-mini"],
      "words of a search are not an id",
    );
    assert.deepEqual(modelChoices(ids, "", shown).length, ids.length);
  });
});
