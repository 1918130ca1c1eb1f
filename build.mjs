// Builds dist/ with esbuild: one ESM bundle for the CLI, with code that only some runs need
// (openai, the frontend with tree-sitter, SQLite) split into chunks loaded by dynamic import.
// Native addons stay external (they are loaded from node_modules at run time). JSON Schema
// validators are compiled here, to ajv standalone code (build/standalone-validators.mjs).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { loadSpecs, standaloneValidatorsPlugin } from "./build/standalone-validators.mjs";

rmSync("dist", { recursive: true, force: true });
const validators = standaloneValidatorsPlugin(await loadSpecs());
await build({
  entryPoints: { cli: "src/cli/main.ts" },
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
