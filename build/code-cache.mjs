// Build step: V8's cached data for every file of dist/, written by src/cli/code-cache.ts itself
// (imported here from its source), so that the format the build writes is the one the CLI reads.

import path from "node:path";
import { importTypeScript } from "./import-typescript.mjs";

export async function writeCodeCache(distDir) {
  return (await importTypeScript("src/cli/code-cache.ts")).writeCodeCache(path.resolve(distDir));
}
