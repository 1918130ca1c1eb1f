// The console of SPEC §2 in a real terminal (tmux, test/support/tmux.ts): `aiython` and `aiython
// -i script.py` against `python3` and `python3 -i script.py`, typed line by line — the screens
// must be identical for valid Python (banner, prompts, `_`, PYTHONSTARTUP, SyntaxError carets,
// tracebacks, Ctrl-C at the prompt and while running, Ctrl-D, exit(n) and the exit status,
// readline history recalled with the Up key and saved to ~/.python_history); then AI syntax at
// the same prompts against the loopback model: `x = pick a number` then `x` echoes 7. Last,
// `aiython setup` answered at its prompts, a key typed there never on screen, and
// --non-interactive on a terminal. Set AIYTHON_TEST_SCREENS=DIR to keep the screens.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { startLoopbackModel, type LoopbackModel, type Responder } from "./support/loopback-model.js";
import { CLI, PYTHON } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";
import { Terminal, tmuxAvailable } from "./support/tmux.js";

assert.ok(tmuxAvailable(), "these tests need tmux (apt-get install tmux; .ci/run installs it)");

const EXECUTABLE = execFileSync(PYTHON, ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
const terminals: Terminal[] = [];
const servers: LoopbackModel[] = [];
after(async () => {
  for (const t of terminals) t.close();
  for (const s of servers) await s.close();
});

function baseEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, TERM: "screen", LANG: "C.UTF-8", AIYTHON_PYTHON: EXECUTABLE, ...extra };
}

function open(command: string, cwd: string, env: Record<string, string>): Terminal {
  const terminal = new Terminal(command, { cwd, env });
  terminals.push(terminal);
  return terminal;
}

function keep(name: string, screen: string): void {
  const dir = process.env.AIYTHON_TEST_SCREENS;
  if (dir) fs.writeFileSync(path.join(dir, `${name}.txt`), `${screen}\n`);
}

/** Types the same session into python3 and aiython; returns both final screens. */
async function session(args: string, cwd: string, env: Record<string, string>, steps: (t: Terminal) => Promise<void>): Promise<[string, string]> {
  const screens: string[] = [];
  for (const command of [`${EXECUTABLE} ${args}`, `${CLI} ${args}`]) {
    const terminal = open(command, cwd, env);
    await terminal.prompt();
    await steps(terminal);
    await terminal.exit();
    screens.push(terminal.screen());
    terminal.close();
  }
  return [screens[0], screens[1]];
}

describe("valid Python at the console: the screen is python3's", () => {
  test("banner, PYTHONSTARTUP, _, errors, compound input, Ctrl-C at the prompt and while running, exit(n)", async () => {
    const dir = tempProject({ "startup.py": "print('startup ran', __file__.endswith('startup.py'))\ns = 5\n" });
    const env = baseEnv(dir, { PYTHONSTARTUP: path.join(dir, "startup.py") });
    const [theirs, ours] = await session("", dir, env, async (t) => {
      // `return 5` is refused by CPython's compiler, not its parser: the frontend finds no block in it.
      for (const line of ["1+1", "_", "s", "'__file__' in dir()", "return 5", "for i in range(2):", "  i", "", "1/0", "def f(): return g()", "", "f()"]) await t.line(line);
      await t.line("import sys; sys.argv, sys.path[0], sorted(globals())");
      t.keys("-l", "x = 1");
      // Ctrl-C only once the line is on the screen: sent at once, it may reach the terminal first.
      await t.waitFor((screen) => screen.trimEnd().endsWith(">>> x = 1"), "the typed line");
      t.keys("C-c");
      await t.prompt();
      t.keys("-l", "import time; time.sleep(30)");
      t.keys("Enter");
      await new Promise((resolve) => setTimeout(resolve, 1500)); // inside time.sleep by then, in both
      t.keys("C-c");
      await t.prompt();
      t.keys("-l", "exit(3)");
      t.keys("Enter");
    });
    keep("console-python3", theirs);
    keep("console-aiython", ours);
    assert.equal(ours, theirs);
    assert.match(ours, /^Python 3\.\d+\.\d+ .* on linux\nType "help", "copyright", "credits" or "license" for more information\.\nstartup ran True\n>>> 1\+1\n2\n/);
    assert.match(ours, /\[exit 3\]$/);
  });

  test("readline history: the Up key recalls a line, and ~/.python_history gets the session", async () => {
    const histories: string[] = [];
    const screens: string[] = [];
    for (const command of [EXECUTABLE, CLI]) {
      const home = tempProject({});
      const t = open(command, home, baseEnv(home));
      await t.prompt();
      await t.line("40 + 2");
      await t.line("6 * 7");
      t.keys("Up");
      t.keys("Up");
      await t.waitFor((s) => s.endsWith(">>> 40 + 2"), "the first line recalled");
      t.keys("Enter");
      await t.prompt();
      t.keys("C-d");
      assert.equal(await t.exit(), 0);
      screens.push(t.screen());
      histories.push(fs.readFileSync(path.join(home, ".python_history"), "utf8"));
      t.close();
    }
    assert.equal(screens[1], screens[0]);
    assert.match(screens[1], />>> 40 \+ 2\n42\n>>> 6 \* 7\n42\n>>> 40 \+ 2\n42\n>>>\n\[exit 0\]$/);
    assert.equal(histories[1], histories[0]);
    assert.match(histories[1], /^40 \+ 2\n6 \* 7\n/);
  });

  test("-i after a script: the program's SystemExit traceback, its names, Ctrl-D", async () => {
    const dir = tempProject({ "prog.py": "import sys\nz = 5\nprint('prog ran')\nsys.exit(4)\n" });
    const [theirs, ours] = await session("-i prog.py", dir, baseEnv(dir), async (t) => {
      await t.line("z * 2");
      t.keys("C-d");
    });
    keep("inspect-python3", theirs);
    keep("inspect-aiython", ours);
    assert.equal(ours, theirs);
    assert.match(ours, /SystemExit: 4\n>>> z \* 2\n10\n>>>\n\[exit 0\]$/);
  });
});

/** requires_result → literal 7; otherwise `none` (a statement block) — read from the request. */
const sevens: Responder = (request) => {
  const stable = JSON.parse(request.body.messages.find((m: { role: string }) => m.role === "user").content);
  const outcome = stable.requires_result ? { kind: "literal", value: 7 } : { kind: "none" };
  return { toolCalls: [{ name: "finish", arguments: { outcome } }] };
};

async function modelEnv(home: string): Promise<Record<string, string>> {
  const model = await startLoopbackModel({ responder: sevens });
  servers.push(model);
  return baseEnv(home, { AIYTHON_MODEL: "loopback-model", OPENAI_BASE_URL: model.url });
}

describe("AI syntax at the console", () => {
  test("x = pick a number, then x echoes the value; an expression block echoes and sets _; compound input waits for the blank line", async () => {
    const dir = tempProject({});
    const t = open(CLI, dir, await modelEnv(dir));
    await t.prompt();
    await t.line("x = pick a number");
    let screen = await t.line("x");
    assert.match(screen, />>> x = pick a number\n>>> x\n7\n>>>$/);
    await t.line("print(the chosen number)");
    await t.line("(the number of days in a week)");
    await t.line("_ * 2");
    await t.line("if x is a big number:");
    await t.line("    print('big')");
    screen = await t.line("");
    assert.match(screen, />>> print\(the chosen number\)\n7\n>>> \(the number of days in a week\)\n7\n>>> _ \* 2\n14\n/);
    assert.match(screen, />>> if x is a big number:\n\.\.\. {5}print\('big'\)\n\.\.\.\nbig\n>>>$/);
    t.keys("C-d");
    assert.equal(await t.exit(), 0);
    keep("console-ai-syntax", t.screen());
  });

  test("without a model the console is python3's: CPython's SyntaxError, and once a line on how to run text as an AI block", async () => {
    const dir = tempProject({});
    const hint = "aiython: input that is not Python runs as an AI block once a model is configured (aiython setup)\n";
    const [theirs, ours] = await session("", dir, baseEnv(dir), async (t) => {
      for (const line of ["x = pick a number", "if x = 2:", "summarize the tickets", "while there are items left:", "1 + 1"]) await t.line(line);
      t.keys("C-d");
    });
    keep("console-no-model-python3", theirs);
    keep("console-no-model-aiython", ours);
    assert.match(ours, /SyntaxError: invalid syntax\naiython: input that is not Python/);
    assert.equal(ours.split(hint).length, 2, "the line is said once");
    assert.equal(ours.replace(hint, ""), theirs);
  });

  test("with a model, input that reads as mistyped Python is CPython's SyntaxError, not an AI block", async () => {
    const dir = tempProject({});
    const env = await modelEnv(dir);
    const [theirs, ours] = await session("", dir, env, async (t) => {
      for (const line of ['print "hi"', "x = 1 +* 2", "1 + 1"]) await t.line(line);
      t.keys("C-d");
    });
    const hint = "aiython: this reads as mistyped Python, not natural language, so it is not an AI block\n";
    assert.match(ours, /Missing parentheses in call to 'print'/);
    assert.equal(ours.split(hint).length, 2, "the line is said once");
    assert.equal(ours.replace(hint, ""), theirs);
    assert.equal(servers.at(-1)?.requests.length, 0, "no model request");
  });

  test("Ctrl-C while a block waits for the model: the spinner is gone, then KeyboardInterrupt and the prompt, as for any statement", async () => {
    const slow = await startLoopbackModel({ responder: async (request, index) => ({ ...(await sevens(request, index)), delayMs: 10_000 }) });
    servers.push(slow);
    const dir = tempProject({});
    const t = open(CLI, dir, baseEnv(dir, { AIYTHON_MODEL: "loopback-model", OPENAI_BASE_URL: slow.url }));
    await t.prompt();
    t.keys("-l", "x = pick a number");
    t.keys("Enter");
    await t.waitFor((s) => /aiython: <stdin>:1 \d+\.\ds$/.test(s), "the spinner");
    t.keys("C-c");
    await t.prompt(); // the next line only at the prompt: typed ahead, it is echoed before the traceback
    const screen = await t.line("1 + 1");
    assert.match(screen, />>> x = pick a number\nTraceback \(most recent call last\):\n {2}File "<stdin>", line 1, in <module>\nKeyboardInterrupt\n>>> 1 \+ 1\n2\n>>>$/);
    assert.doesNotMatch(screen, /aiython: <stdin>/, "no spinner left on the screen");
    t.keys("C-d");
    assert.equal(await t.exit(), 0);
  });

  test("-i after a script: AI syntax sees the program's names; exit(n) ends with n", async () => {
    const dir = tempProject({ "prog.py": "z = 5\n" });
    const t = open(`${CLI} -i prog.py`, dir, await modelEnv(dir));
    await t.prompt();
    await t.line("w = pick one for z");
    const screen = await t.line("w + z");
    assert.match(screen, />>> w \+ z\n12\n>>>$/);
    t.keys("-l", "exit(6)");
    t.keys("Enter");
    assert.equal(await t.exit(), 6);
  });
});

describe("aiython setup at its prompts", () => {
  test("provider, base URL, no key, the model found by a word prefix, the check; then the file", async () => {
    const model = await startLoopbackModel({
      models: ["llama-3.1-8b-instruct", "loopback-model", "qwen2.5-7b"],
      responder: () => ({ toolCalls: [{ name: "note", arguments: { n: 1 } }] }),
    });
    servers.push(model);
    const dir = tempProject({});
    const t = open(`${CLI} setup`, dir, baseEnv(dir));
    await t.waitFor((s) => s.includes("Which model provider?"), "the provider question");
    for (let i = 0; i < 4; i++) t.keys("Down");
    await t.waitFor((s) => /❯ another OpenAI-compatible server/.test(s), "the custom server selected");
    t.keys("Enter");
    await t.waitFor((s) => s.includes("Base URL"), "the base URL question");
    t.keys("C-u");
    t.keys("-l", model.url);
    t.keys("Enter");
    await t.waitFor((s) => s.includes("Does the server need an API key?"), "the key question");
    t.keys("Enter");
    await t.waitFor((s) => s.includes("Model"), "the model search");
    t.keys("-l", "loop");
    await t.waitFor((s) => /❯ loopback-model/.test(s) && !s.includes("qwen2.5-7b"), "the search narrowed to loopback-model");
    t.keys("Enter");
    await t.waitFor((s) => s.includes("Send one tiny request to check the server?"), "the check question");
    t.keys("Enter");
    assert.equal(await t.exit(), 0);
    const screen = t.screen();
    keep("setup-interactive", screen);
    assert.match(screen, /tool_choice "required": +honoured/);
    assert.match(screen, /Created aiython\.toml: top level model = "loopback-model"/);
    assert.equal(fs.readFileSync(path.join(dir, "aiython.toml"), "utf8"), `version = 3\nmodel = "loopback-model"\napi_base = "${model.url}"\n`);
  });

  test("the model picker takes a model id the server does not list, as typed", async () => {
    const model = await startLoopbackModel({ models: ["llama-3.1-8b-instruct", "qwen2.5-7b"] });
    servers.push(model);
    const dir = tempProject({});
    const t = open(`${CLI} setup --base-url ${model.url}`, dir, baseEnv(dir));
    await t.waitFor((s) => s.includes("Does the server need an API key?"), "the key question");
    t.keys("Enter");
    await t.waitFor((s) => s.includes("Model"), "the model search");
    t.keys("-l", "my-private-model");
    await t.waitFor((s) => /❯ my-private-model/.test(s) && s.includes("as typed: the server does not list it"), "the typed id offered");
    t.keys("Enter");
    await t.waitFor((s) => s.includes("Send one tiny request to check the server?"), "the check question");
    t.keys("n", "Enter");
    assert.equal(await t.exit(), 0);
    assert.equal(fs.readFileSync(path.join(dir, "aiython.toml"), "utf8"), `version = 3\nmodel = "my-private-model"\napi_base = "${model.url}"\n`);
  });

  test("a key typed without echo goes to .aiython/credentials.env (0600) and is sent; words of a name find the model", async () => {
    const secret = "sk-typed-NEVER-ON-SCREEN-41f7";
    const model = await startLoopbackModel({
      models: ["llama-3.1-8b-instruct", "loopback-model", "qwen2.5-7b"],
      responder: () => ({ toolCalls: [{ name: "note", arguments: { n: 1 } }] }),
    });
    servers.push(model);
    const dir = tempProject({ ".gitignore": "node_modules/\n" });
    const t = open(`${CLI} setup --base-url ${model.url}`, dir, baseEnv(dir));
    await t.waitFor((s) => s.includes("Does the server need an API key?"), "the key question");
    t.keys("y", "Enter");
    await t.waitFor((s) => s.includes("API key (saved in .aiython/credentials.env as OPENAI_API_KEY; not shown)"), "the key prompt");
    t.keys("-l", secret);
    t.keys("Enter");
    await t.waitFor((s) => s.includes("Model"), "the model search");
    t.keys("-l", "qwen 7");
    await t.waitFor((s) => /❯ qwen2\.5-7b/.test(s) && !s.includes("loopback-model"), "the search narrowed to qwen2.5-7b");
    t.keys("Enter");
    await t.waitFor((s) => s.includes("Send one tiny request to check the server?"), "the check question");
    t.keys("Enter");
    assert.equal(await t.exit(), 0);
    const screen = t.screen();
    keep("setup-interactive-key", screen);
    assert.ok(!screen.includes(secret) && !screen.includes(secret.slice(0, 8)), `the key is on screen:\n${screen}`);
    assert.match(screen, /Stored the key as OPENAI_API_KEY in \.aiython\/credentials\.env \(readable by you only\)/);
    assert.equal(fs.readFileSync(path.join(dir, "aiython.toml"), "utf8"), `version = 3\nmodel = "qwen2.5-7b"\napi_base = "${model.url}"\napi_key_env = "OPENAI_API_KEY"\n`);
    const credentials = path.join(dir, ".aiython", "credentials.env");
    assert.equal(fs.readFileSync(credentials, "utf8"), `OPENAI_API_KEY="${secret}"\n`);
    assert.equal(fs.statSync(credentials).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(credentials)).mode & 0o777, 0o700);
    assert.equal(fs.readFileSync(path.join(dir, ".gitignore"), "utf8"), "node_modules/\n.aiython/\n");
    const sent = model.requests.map((r) => r.headers.authorization);
    assert.ok(sent.length >= 2 && sent.every((h) => h === `Bearer ${secret}`), `the listing and the check carry the typed key: ${sent.length} requests`);
  });

  test("--non-interactive on a terminal asks nothing: without --model it says what to add, with it the file is written", async () => {
    const model = await startLoopbackModel({});
    servers.push(model);
    const dir = tempProject({});
    const bare = open(`${CLI} setup --non-interactive --base-url ${model.url}`, dir, baseEnv(dir));
    assert.equal(await bare.exit(), 2);
    assert.match(bare.screen(), /^aiython: setup --non-interactive needs --model ID and a provider/);
    assert.ok(!fs.existsSync(path.join(dir, "aiython.toml")));
    const full = open(`${CLI} setup --non-interactive --base-url ${model.url} --model loopback-model`, dir, baseEnv(dir));
    assert.equal(await full.exit(), 0);
    assert.doesNotMatch(full.screen(), /\?/, "no question was asked");
    assert.equal(fs.readFileSync(path.join(dir, "aiython.toml"), "utf8"), `version = 3\nmodel = "loopback-model"\napi_base = "${model.url}"\n`);
    assert.equal(model.requests.length, 0, "no check unless --check");
  });
});
