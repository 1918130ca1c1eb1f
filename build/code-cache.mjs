// Build step: V8's cached data for every file of dist/, written by src/cli/code-cache.ts itself
// (bundled here on the fly), so that the format the build writes is the one the CLI reads.

import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export async function writeCodeCache(distDir) {
  const bundled = await build({
    entryPoints: [path.join(ROOT, "src", "cli", "code-cache.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "warning",
  });
  const url = `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`;
  return (await import(url)).writeCodeCache(path.resolve(distDir));
}
