// Builds dist/ with esbuild: one bundle for the CLI, with code that only some runs need
// (openai, the frontend with tree-sitter, SQLite) split into chunks loaded on demand; esbuild
// splits ES modules, which are then turned into CommonJS files one for one.
// Native addons stay external (they are loaded from node_modules at run time). JSON Schema
// validators are compiled here, to ajv standalone code (build/standalone-validators.mjs).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { loadSpecs, standaloneValidatorsPlugin } from "./build/standalone-validators.mjs";
import { commonjsChunks, lightBuiltinImports } from "./build/commonjs-chunks.mjs";
import { writeCodeCache } from "./build/code-cache.mjs";

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

// Native addons, and unpdf, which loads its own pdf.js build at run time (read only when a PDF is).
// dist/ is CommonJS, so each must be loadable by require() (a "require" condition or CommonJS).
const EXTERNAL = ["tree-sitter", "tree-sitter-python", "better-sqlite3", "unpdf"];
for (const name of EXTERNAL) createRequire(import.meta.url).resolve(name);

rmSync("dist", { recursive: true, force: true });
const validators = standaloneValidatorsPlugin(await loadSpecs());
await build({
  // dist/early.js is bin/aiython's start (src/cli/early-entry.ts), sharing its chunks with dist/cli.js.
  entryPoints: { cli: "src/cli/main.ts", early: "src/cli/early-entry.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  external: EXTERNAL,
  plugins: [validators],
  define: { __AIYTHON_BUILD_ID__: JSON.stringify(BUILD_ID) },
  logLevel: "warning",
});
// Then each file becomes CommonJS (build/commonjs-chunks.mjs): the same chunks, loaded by
// require(), without Node's ES module loader on the start-up path (SPEC §12).
await commonjsChunks("dist");
// bin/aiython's first file: the code cache's loader, which then loads dist/early.js through it,
// and that spawns the interpreter before the rest of the CLI is even read (src/cli/early-loader.ts).
await build({
  entryPoints: { early: "src/cli/early-loader.ts" },
  outfile: "dist/early.cjs",
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  legalComments: "none",
  external: ["./early.js"],
  logLevel: "warning",
});
writeFileSync("dist/early.cjs", lightBuiltinImports(readFileSync("dist/early.cjs", "utf8")));

// Byte-compile the bridge for the build's Python, so that its first import is fast even where
// PYTHONDONTWRITEBYTECODE keeps Python from caching it at run time. Optional: without python3
// here, Python compiles the bridge when it first runs.
spawnSync("python3", ["-m", "compileall", "-q", "bridge-py/aiython_bridge", "bridge-py/public"], { stdio: "ignore" });

// Last, V8's compiled form of each file of dist/, which dist/early.cjs hands to V8
// (src/cli/code-cache.ts): for the files start-up loads, taken after runs of the built CLI
// (build/train-code-cache.mjs), hence after everything else is built.
await writeCodeCache("dist");
