// Preloaded (node -r) into the CLI's build-time runs of hello.py (build/train-code-cache.mjs):
// records every script of dist/*.js that the CLI's code-cache loader compiles
// (src/cli/code-cache.ts makes them with node:vm's Script) and, when the run exits, writes V8's
// cached data of each, taken then, so that it holds every function the run compiled, to the file
// AIYTHON_BUILD_CACHE_RECORD names: a JSON object of base64 data by file name. The CLI itself
// has no part in this: only the build preloads it.

const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const record = process.env.AIYTHON_BUILD_CACHE_RECORD;
const distDir = process.env.AIYTHON_BUILD_CACHE_DIST;
const scripts = new Map();
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(source, options) {
    super(source, options);
    const filename = options && typeof options.filename === "string" ? options.filename : "";
    if (path.dirname(filename) === distDir && filename.endsWith(".js")) scripts.set(path.basename(filename), this);
  }
};
process.on("exit", () => {
  const data = {};
  for (const [name, script] of scripts) data[name] = script.createCachedData().toString("base64");
  fs.writeFileSync(record, JSON.stringify(data));
});
