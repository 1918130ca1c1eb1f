// Builds dist/ with esbuild: one ESM bundle for the CLI, with code that only some runs need
// (openai, the frontend with tree-sitter, SQLite) split into chunks loaded by dynamic import.
// Native addons stay external (they are loaded from node_modules at run time). JSON Schema
// validators are compiled here, to ajv standalone code (build/standalone-validators.mjs).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { loadSpecs, standaloneValidatorsPlugin } from "./build/standalone-validators.mjs";

// The build's fingerprint: a hash of every source that decides how a program is prepared (the
// host's src/, the bridge, the pinned dependencies). The preparation cache keys entries by it
// (src/version.ts CACHE_VERSION), so a rebuilt aiython never trusts an entry an older one wrote.
function fingerprint(roots) {
  const hash = createHash("sha256");
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "__pycache__") walk(file);
      } else if (/\.(ts|py|json)$/.test(entry.name)) {
        hash.update(file).update("\0").update(readFileSync(file)).update("\0");
      }
    }
  };
  for (const root of roots) root.endsWith(".json") ? hash.update(readFileSync(root)) : walk(root);
  return hash.digest("hex").slice(0, 16);
}
const BUILD_ID = fingerprint(["src", "bridge-py/aiython_bridge", "package-lock.json"]);

rmSync("dist", { recursive: true, force: true });
const validators = standaloneValidatorsPlugin(await loadSpecs());
await build({
  // The index worker is an entry of its own: a worker thread loads it by file (src/frontend/parallel-index.ts).
  entryPoints: { cli: "src/cli/main.ts", "index-worker": "src/frontend/index-worker.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  // unpdf loads its own pdf.js build at run time; it is read only when a PDF is.
  external: ["tree-sitter", "tree-sitter-python", "better-sqlite3", "unpdf"],
  plugins: [validators],
  define: { __AIYTHON_BUILD_ID__: JSON.stringify(BUILD_ID) },
  banner: {
    // Bundled CommonJS dependencies (e.g. commander) call require(); give ESM chunks one.
    js: "import { createRequire as __aiythonCreateRequire } from 'node:module'; const require = __aiythonCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
// bin/aiython's entry: CommonJS, so that the interpreter is spawned before Node initialises its
// ES module loader for the rest (src/early-start.ts).
await build({
  entryPoints: { early: "src/cli/early-entry.ts" },
  outfile: "dist/early.cjs",
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  legalComments: "none",
  external: ["./cli.js"],
  logLevel: "warning",
});

// Byte-compile the bridge for the build's Python, so that its first import is fast even where
// PYTHONDONTWRITEBYTECODE keeps Python from caching it at run time. Optional: without python3
// here, Python compiles the bridge when it first runs.
spawnSync("python3", ["-m", "compileall", "-q", "bridge-py/aiython_bridge", "bridge-py/aiython"], { stdio: "ignore" });
