// Build-time import of one of the project's TypeScript modules: esbuild bundles it in memory and
// Node imports the result from a data: URL, so build steps run the same code the CLI or the tests
// run (build/standalone-validators.mjs reads build/validators.ts; build/code-cache.mjs runs
// src/cli/code-cache.ts).

import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The module at `relativePath` (from the package root), bundled and imported. */
export async function importTypeScript(relativePath) {
  const bundled = await build({
    entryPoints: [path.join(ROOT, relativePath)],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "warning",
  });
  return import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`);
}
