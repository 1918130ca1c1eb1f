// Build step: V8's cached data for every file of dist/, written by src/cli/code-cache.ts itself
// (imported here from its source), so that the format the build writes is the one the CLI reads;
// then, for the files start-up loads, the data taken after runs of hello.py, and for those only a
// first block loads, after a run of a program with AI blocks
// (build/train-code-cache.mjs).

import path from "node:path";
import { importTypeScript } from "./import-typescript.mjs";
import { trainCodeCache } from "./train-code-cache.mjs";

export async function writeCodeCache(distDir) {
  const { writeCodeCache: writeAll, replaceCachedData } = await importTypeScript("src/cli/code-cache.ts");
  const dir = path.resolve(distDir);
  writeAll(dir);
  try {
    return trainCodeCache(dir, replaceCachedData);
  } catch (error) {
    // No temporary folder, say: the files keep their compiled data, correct and only slower.
    console.warn(`build: the code cache was not trained (${error instanceof Error ? error.message : error})`);
    return 0;
  }
}
