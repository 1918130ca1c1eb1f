// Nothing loads before it is needed (docs/architecture.md, SPEC §12 start-up budgets): the built
// CLI runs hello.py — unconfigured, and configured with a model in aiython.toml — under a module
// loader hook and an exit hook that record every ES module file, every CommonJS file and every
// Node built-in the run loaded. The configured run reaches configuration and the observers, and
// nothing else: no model client (openai), no schema compiler (ajv's, the validators are built),
// no frontend or tree-sitter, no journal or SQLite, no stats or trace code, no node:crypto.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { CLI, cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const HOOKS = {
  "register.mjs": `import { register } from "node:module";
import { createRequire } from "node:module";
import fs from "node:fs";
register("./hooks.mjs", import.meta.url);
const require = createRequire(import.meta.url);
process.on("exit", () => fs.appendFileSync(process.env.LOADED_FILE, [...process.moduleLoadList.map((m) => "builtin " + m), ...Object.keys(require.cache).map((f) => "cjs " + f)].join("\\n") + "\\n"));
`,
  "hooks.mjs": `import fs from "node:fs";
export async function load(url, context, next) {
  const result = await next(url, context);
  if (url.startsWith("file:")) fs.appendFileSync(process.env.LOADED_FILE, "esm " + url + "\\n");
  return result;
}
`,
};

interface Loaded {
  /** Source modules and packages whose code the loaded files of dist/ hold (esbuild's `// path` comments). */
  bundled: Set<string>;
  cjs: string[];
  builtins: string[];
}

async function loadedBy(project: string): Promise<Loaded> {
  const hooks = tempProject(HOOKS, { git: false, prefix: "aiython-hooks-" });
  const record = path.join(hooks, "loaded.txt");
  const result = await execa(process.execPath, ["--import", path.join(hooks, "register.mjs"), CLI, "hello.py"], {
    cwd: project,
    env: cleanEnv({ LOADED_FILE: record }),
    extendEnv: false,
    reject: false,
  });
  assert.equal(result.exitCode, 0, String(result.stderr));
  assert.equal(result.stdout, "hello");
  const lines = fs.readFileSync(record, "utf8").split("\n");
  const dist = path.resolve(path.dirname(CLI), "..", "dist") + path.sep;
  const bundled = new Set<string>();
  for (const line of lines.filter((l) => l.startsWith("esm file:"))) {
    const file = new URL(line.slice(4)).pathname;
    if (!file.startsWith(dist)) continue;
    for (const match of fs.readFileSync(file, "utf8").matchAll(/^\/\/ ((?:src|node_modules)\/\S+)/gm)) bundled.add(match[1]);
  }
  return {
    bundled,
    cjs: lines.filter((l) => l.startsWith("cjs ")).map((l) => l.slice(4)),
    builtins: lines.filter((l) => l.startsWith("builtin NativeModule ")).map((l) => l.slice("builtin NativeModule ".length)),
  };
}

const has = (loaded: Loaded, prefix: string) => [...loaded.bundled].filter((file) => file.startsWith(prefix));

test("a configured hello.py loads configuration and the observers, and nothing a block or a journal write would need", async () => {
  const project = tempProject({ "hello.py": 'print("hello", end="")\n', "aiython.toml": 'version = 3\nmodel = { model = "local-model", api_base = "http://127.0.0.1:9/v1" }\n' });
  const loaded = await loadedBy(project);
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
    "src/capabilities/chat/",
    "src/recovery/invocation/",
    "src/observe/stats-render.ts",
    "src/observe/trace-writer.ts",
    "src/observe/recording-model.ts",
    "src/observe/spinner.ts",
  ]) {
    assert.deepEqual(has(loaded, prefix), [], `${prefix} is loaded`);
  }
  assert.deepEqual(loaded.cjs.filter((file) => /tree-sitter|better-sqlite3|node_modules\/ajv/.test(file)), []);
  assert.deepEqual(loaded.builtins.filter((name) => name === "crypto" || name === "http" || name === "https"), []);
});

test("an unconfigured hello.py loads no configuration code beyond discovery, and no observers", async () => {
  const loaded = await loadedBy(tempProject({ "hello.py": 'print("hello", end="")\n' }));
  for (const prefix of ["src/config/config-validator.ts", "node_modules/smol-toml/", "src/run/observers.ts", "src/run/pause-wiring.ts", "node_modules/openai/", "src/frontend/"]) {
    assert.deepEqual(has(loaded, prefix), [], `${prefix} is loaded`);
  }
});
