// Builds dist/ with esbuild: one ESM bundle for the CLI, with code that only some runs need
// (openai, the frontend with tree-sitter, SQLite) split into chunks loaded by dynamic import.
// Native addons stay external (they are loaded from node_modules at run time).
import { build } from "esbuild";
import { rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: { cli: "src/cli.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  external: ["tree-sitter", "tree-sitter-python", "better-sqlite3"],
  banner: {
    // Bundled CommonJS dependencies (e.g. commander) call require(); give ESM chunks one.
    js: "import { createRequire as __aiythonCreateRequire } from 'node:module'; const require = __aiythonCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
