// Nothing loads before it is needed (docs/architecture.md, SPEC §12 start-up budgets): the built
// CLI runs hello.py — unconfigured, and configured with a model in aiython.toml — under a module
// loader hook, a require hook and an exit hook that record every file (ES module or CommonJS: dist/
// is CommonJS) and when it loaded, every CommonJS file and every Node built-in the run loaded. The configured run reaches configuration
// and the observers, and nothing else: no model client (openai), no schema compiler (ajv's, the validators are built),
// no frontend or tree-sitter, no journal or SQLite, no stats or trace code, no node:crypto. A
// program with AI blocks loads the model client while it runs up to the first one (and no openai
// when its route does not stream).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { CLI, cleanEnv } from "./support/run-cli.js";
import { echoFinishResponder, startLoopbackModel } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

const HOOKS = {
  "register.mjs": `import { register } from "node:module";
import { createRequire } from "node:module";
import fs from "node:fs";
import { pathToFileURL } from "node:url";
register("./hooks.mjs", import.meta.url);
const require = createRequire(import.meta.url);
// dist/ is CommonJS (build.mjs): each file it requires is recorded as the ES module hook records its own.
const Module = require("node:module");
const load = Module.prototype.load; // every CommonJS file, whichever loader compiles it (src/cli/code-cache.ts)
Module.prototype.load = function (filename) {
  fs.appendFileSync(process.env.LOADED_FILE, "at " + Date.now() + " " + pathToFileURL(filename).href + "\\n");
  return load.call(this, filename);
};
process.on("exit", () => fs.appendFileSync(process.env.LOADED_FILE, [...process.moduleLoadList.map((m) => "builtin " + m), ...Object.keys(require.cache).map((f) => "cjs " + f)].join("\\n") + "\\n"));
`,
  "hooks.mjs": `import fs from "node:fs";
export async function load(url, context, next) {
  const result = await next(url, context);
  if (url.startsWith("file:")) fs.appendFileSync(process.env.LOADED_FILE, "at " + Date.now() + " " + url + "\\n");
  return result;
}
`,
};

interface Loaded {
  stdout: string;
  /** Source modules and packages whose code the loaded files of dist/ hold (esbuild's `// path` comments). */
  bundled: Set<string>;
  /** When (Date.now()) the first file of dist/ holding each of them was loaded. */
  loadedAt: Map<string, number>;
  cjs: string[];
  builtins: string[];
}

async function loadedBy(project: string, script = "hello.py", env: Record<string, string> = {}): Promise<Loaded> {
  const hooks = tempProject(HOOKS, { git: false, prefix: "aiython-hooks-" });
  const record = path.join(hooks, "loaded.txt");
  const result = await execa(process.execPath, ["--import", path.join(hooks, "register.mjs"), CLI, script], {
    cwd: project,
    env: cleanEnv({ LOADED_FILE: record, ...env }),
    extendEnv: false,
    reject: false,
  });
  assert.equal(result.exitCode, 0, String(result.stderr));
  const lines = fs.readFileSync(record, "utf8").split("\n");
  const dist = path.resolve(path.dirname(CLI), "..", "dist") + path.sep;
  const bundled = new Set<string>();
  const loadedAt = new Map<string, number>();
  for (const line of lines.filter((l) => l.startsWith("at "))) {
    const [, at, url] = line.split(" ");
    const file = new URL(url).pathname;
    if (!file.startsWith(dist)) continue;
    for (const match of fs.readFileSync(file, "utf8").matchAll(/^\/\/ ((?:src|node_modules)\/\S+)/gm)) {
      bundled.add(match[1]);
      if (!loadedAt.has(match[1])) loadedAt.set(match[1], Number(at));
    }
  }
  return {
    stdout: result.stdout,
    bundled,
    loadedAt,
    cjs: lines.filter((l) => l.startsWith("cjs ")).map((l) => l.slice(4)),
    builtins: lines.filter((l) => l.startsWith("builtin NativeModule ")).map((l) => l.slice("builtin NativeModule ".length)),
  };
}

const has = (loaded: Loaded, prefix: string) => [...loaded.bundled].filter((file) => file.startsWith(prefix));

test("a configured hello.py loads configuration and the observers, and nothing a block or a journal write would need", async () => {
  const project = tempProject({ "hello.py": 'print("hello", end="")\n', "aiython.toml": 'version = 3\nmodel = { model = "local-model", api_base = "http://127.0.0.1:9/v1" }\n' });
  const loaded = await loadedBy(project);
  assert.equal(loaded.stdout, "hello");
  // What it reaches: the configuration (TOML and the built validator) and the observers.
  assert.ok(has(loaded, "src/config/config-validator.ts").length === 1, "the built config validator");
  assert.ok(has(loaded, "node_modules/smol-toml/").length > 0, "smol-toml");
  assert.ok(has(loaded, "src/run/observers.ts").length === 1, "the observers");
  // What it does not.
  for (const prefix of [
    "node_modules/openai/",
    "node_modules/ajv/dist/compile/",
    "node_modules/ajv/dist/core",
    "src/frontend/",
    "src/journal/",
    "src/model/",
    "src/observe/stats-render.ts",
    "src/observe/trace-writer.ts",
    "src/observe/recording-model.ts",
    "src/observe/spinner.ts",
  ]) {
    assert.deepEqual(has(loaded, prefix), [], `${prefix} is loaded`);
  }
  // Of the tool loop's room only the pause coordinator, which waits for a pause.
  assert.deepEqual(has(loaded, "src/invocation/"), ["src/invocation/pause-coordinator.ts"]);
  assert.deepEqual(
    loaded.cjs.filter((file) => /tree-sitter|better-sqlite3|node_modules\/ajv/.test(file)),
    [],
  );
  assert.deepEqual(
    loaded.builtins.filter((name) => name === "crypto" || name === "http" || name === "https"),
    [],
  );
});

test("a second configured run of an unchanged aiython.toml loads neither smol-toml nor the config validator", async () => {
  const project = tempProject({ "hello.py": 'print("hello", end="")\n', "aiython.toml": 'version = 3\nmodel = { model = "local-model", api_base = "http://127.0.0.1:9/v1" }\n' });
  const first = await loadedBy(project);
  assert.ok(has(first, "node_modules/smol-toml/").length > 0, "the first run parses the file");
  const second = await loadedBy(project);
  assert.equal(second.stdout, "hello");
  assert.deepEqual(has(second, "node_modules/smol-toml/"), [], "smol-toml is loaded again");
  assert.deepEqual(has(second, "src/config/config-validator.ts"), [], "the validator is loaded again");
  assert.ok(has(second, "src/run/observers.ts").length === 1, "the run is still configured");
  // A changed file is parsed and validated again.
  fs.appendFileSync(path.join(project, "aiython.toml"), "timeout = 30\n");
  const third = await loadedBy(project);
  assert.ok(has(third, "src/config/config-validator.ts").length === 1, "a changed file is validated");
});

test("an unconfigured hello.py loads no configuration code beyond discovery, and no observers", async () => {
  const loaded = await loadedBy(tempProject({ "hello.py": 'print("hello", end="")\n' }));
  assert.equal(loaded.stdout, "hello");
  for (const prefix of ["src/config/config-validator.ts", "node_modules/smol-toml/", "src/run/observers.ts", "src/run/pause-wiring.ts", "node_modules/openai/", "src/frontend/"]) {
    assert.deepEqual(has(loaded, prefix), [], `${prefix} is loaded`);
  }
});

test("a program with AI blocks has the model client loaded while it runs up to its first block", async () => {
  // The program runs a while before its block and prints when it reaches it: the model client and
  // its POST path loaded before then (the warm-up after the plan with blocks), not at the block's
  // pause; the openai package not at all, since the route does not stream.
  const program = "import time\ntime.sleep(2)\nprint(time.time() * 1000, flush=True)\nn: int = pick a number\nprint(n)\n";
  const model = await startLoopbackModel({ responder: echoFinishResponder() });
  try {
    const loaded = await loadedBy(tempProject({ "block.py": program }), "block.py", { AIYTHON_MODEL: "local-model", OPENAI_BASE_URL: model.url });
    const [reachedBlock, answer] = loaded.stdout.split("\n");
    assert.equal(answer, "0");
    for (const file of ["src/model/model-client.ts", "src/model/post-attempt.ts", "src/model/rehearsal.ts"]) {
      const at = loaded.loadedAt.get(file);
      assert.ok(at !== undefined, `${file} is loaded`);
      assert.ok(at < Number(reachedBlock), `${file} loaded ${(at - Number(reachedBlock)).toFixed(0)} ms after the program reached its block`);
    }
    assert.deepEqual(has(loaded, "node_modules/openai/"), [], "openai is loaded for a route that does not stream");
    assert.equal(model.requests.filter((r) => r.path.endsWith("/chat/completions")).length, 1, "the warm-up sent nothing");
  } finally {
    await model.close();
  }
});
