// Loaded with `node --import` (through NODE_OPTIONS) by tests that must show which of aiython's
// modules a run loads: every module URL the ES module loader resolves, and every CommonJS file
// loaded (dist/ is CommonJS: build.mjs), is appended, one a line, to the file named by
// AIYTHON_TEST_MODULE_TRACE.
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";
import { pathToFileURL } from "node:url";

register("./module-trace-hooks.mjs", import.meta.url);

const load = Module.prototype.load; // whichever loader compiles the file (src/cli/code-cache.ts)
Module.prototype.load = function (filename) {
  if (process.env.AIYTHON_TEST_MODULE_TRACE) appendFileSync(process.env.AIYTHON_TEST_MODULE_TRACE, `${pathToFileURL(filename).href}\n`);
  return load.call(this, filename);
};
