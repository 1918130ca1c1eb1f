// Turns esbuild's split ES module output in dist/ into CommonJS files, one for one (SPEC §12
// start-up budget). esbuild splits chunks for the ESM format only, and Node's ES module loader
// costs a run more than the code it loads: an async read, URL resolution and a module job per
// file, and the loader's own modules, all while the interpreter boots. As CommonJS the same files
// load by require(): synchronous, no loader to initialise, and a V8 code cache can serve them
// (src/cli/code-cache.ts). Each file keeps its meaning:
//   - static imports become require() at the top, where the imports were, in the same order;
//     exports stay live (esbuild's getters);
//   - import() becomes a require() inside a promise (esbuild's own rewrite, so strings are never
//     touched): it still settles later and a throw still rejects, and it resolves to what import()
//     gives (named exports and `default`). A package with both builds is read through its CommonJS
//     one ("require" condition): only unpdf, whose index.cjs loads the same pdf.js as its index.mjs;
//   - "use strict", as every ES module is;
//   - import.meta.url is the file's own URL, made on first use (pathToFileURL costs a start-up
//     that never reads it);
//   - esbuild's `// src/...` comments naming the sources a file holds are kept (tests read them);
//   - a default or namespace import of a Node built-in (`import fs from "node:fs"`) is the
//     built-in seen through an object whose `default` is the built-in itself, instead of esbuild's
//     copy of every export as a getter (lightBuiltinImports; dist/early.cjs, the loader, gets the same).
// dist/package.json makes Node read dist/*.js as CommonJS.

import { transform } from "esbuild";
import fs from "node:fs";
import path from "node:path";

const MODULE_URL = "__aiythonModule.url";
const MODULE_URL_BANNER =
  'const __aiythonModule = { get url() { const url = require("node:url").pathToFileURL(__filename).href; Object.defineProperty(this, "url", { value: url }); return url; } };';
/** esbuild's comment naming a source a file holds (kept through the transform as a legal comment). */
const SOURCE_COMMENT = /^\/\/ ((?:src|node_modules)\/\S+)$/gm;
const KEPT_COMMENT = /^\/\/! ((?:src|node_modules)\/\S+)$/gm;

/** Converts every .js file of `dir` in place and marks the folder as CommonJS. */
export async function commonjsChunks(dir) {
  const files = fs.readdirSync(dir).filter((name) => name.endsWith(".js"));
  await Promise.all(files.map((name) => convert(path.join(dir, name))));
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
  assertNoCycle(dir, files);
}

async function convert(file) {
  const original = fs.readFileSync(file, "utf8");
  if (/^\/\/! (?:src|node_modules)\//m.test(original)) throw new Error(`${file}: a line the comments' round trip would change`);
  const usesUrl = original.includes("import.meta.url");
  const { code, warnings } = await transform(original.replace(SOURCE_COMMENT, "//! $1"), {
    format: "cjs",
    loader: "js",
    platform: "node",
    target: "node20",
    supported: { "dynamic-import": false },
    sourcefile: path.basename(file),
    legalComments: "inline",
    define: { "import.meta.url": MODULE_URL },
    banner: `"use strict";${usesUrl ? `\n${MODULE_URL_BANNER}` : ""}`,
    logLevel: "silent",
  });
  if (warnings.length > 0) throw new Error(`${file}: ${warnings.map((w) => w.text).join("; ")}`);
  if (/\bimport\.meta\b/.test(code)) throw new Error(`${file}: import.meta left after conversion`);
  fs.writeFileSync(file, lightBuiltinImports(code.replace(KEPT_COMMENT, "// $1")));
}

/** esbuild's own top-level line for a default or namespace import of a built-in, and what replaces its copy. */
const BUILTIN_IMPORT = /^var (import_[\w$]+) = __toESM\(require\("(node:[\w/]+)"\)(?:, 1)?\);$/gm;
const LIGHT_HELPER = "var __aiythonBuiltin = (m) => Object.create(m, { default: { value: m, enumerable: true } });";

/** CommonJS output of esbuild with its built-in imports made light (see the header). */
export function lightBuiltinImports(code) {
  if (!code.includes('__toESM(require("node:')) return code;
  const light = code.replace(BUILTIN_IMPORT, (_, name, builtin) => `var ${name} = __aiythonBuiltin(require("${builtin}"));`);
  const directive = light.startsWith('"use strict";\n') ? '"use strict";\n' : "";
  return `${directive}${LIGHT_HELPER}\n${light.slice(directive.length)}`;
}

/** Static require() among the files must form no cycle: CommonJS would hand a half-loaded file. */
function assertNoCycle(dir, files) {
  const edges = new Map(
    files.map((name) => {
      const code = fs.readFileSync(path.join(dir, name), "utf8");
      const statics = [...code.matchAll(/^var \w+ = (?:__toESM\()?require\("\.\/([\w.-]+\.js)"\)/gm)].map((m) => m[1]);
      return [name, statics];
    }),
  );
  const state = new Map();
  const visit = (name, trail) => {
    if (state.get(name) === "done") return;
    if (state.get(name) === "open") throw new Error(`dist/: a require cycle ${[...trail, name].join(" → ")}`);
    state.set(name, "open");
    for (const next of edges.get(name) ?? []) visit(next, [...trail, name]);
    state.set(name, "done");
  };
  for (const name of files) visit(name, []);
}
