// V8 code cache for the files of dist/ (SPEC §12 start-up budget): build.mjs compiles each file
// once and stores V8's cached data beside it (dist/code-cache/NAME.v8); dist/early.cjs installs a
// loader for dist/*.js that hands that data to V8, so a run deserialises the code instead of
// parsing it. Each cache file starts with a copy of the source it was made from (compared byte for
// byte, which costs far less than hashing it): a file that differs from it (edited, rebuilt without
// the cache) is compiled as Node would, and so is one whose data V8 rejects (another Node or V8
// flags). Nothing is written at run time. The data of a file that start-up loads is taken after
// build-time runs of hello.py (build/code-cache.mjs), so it holds the functions those runs
// compiled, not only the file's top level: a run then compiles none of them again.
// Only files directly in dist/ with the .js extension go through it; everything else (packages,
// dist/*.cjs) loads as usual. The same loader resolves a dist/ file's `require("./NAME.js")` of
// another file of dist/ (how the chunks name each other) to that file directly, as Node's own
// resolution would, without its search (a listing of dist/ read once says which files exist).

import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";

export const CODE_CACHE_DIR = "code-cache";
const LENGTH_BYTES = 4;

/** The parts of Node's CommonJS Module class the loader uses (`module.constructor` in a CommonJS
 * file: taking it from there spares loading the `node:module` built-in and what it pulls in). */
export interface CommonJsModuleClass {
  _extensions: Record<string, (module: CommonJsModule, filename: string) => void>;
  _cache: NodeJS.Require["cache"];
  _resolveFilename(request: string, parent: { filename?: string | null } | undefined, ...rest: unknown[]): string;
}

interface CommonJsModule {
  exports: unknown;
  filename: string;
  require(id: string): unknown;
}

const SIBLING = /^\.\/[\w.-]+\.js$/;

/** CommonJS's own wrapper (Node's Module.wrap), the same at build time and at run time. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/** Loads dist/*.js through the code cache, from now on. */
export function installCodeCache(distDir: string, Module: CommonJsModuleClass): void {
  const extensions = Module._extensions;
  const plain = extensions[".js"];
  extensions[".js"] = function (module, filename) {
    if (path.extname(filename) !== ".js" || path.dirname(filename) !== distDir) return plain.call(this, module, filename);
    const bytes = fs.readFileSync(filename);
    const cachedData = cachedDataFor(distDir, filename, bytes);
    const script = new vm.Script(wrap(bytes.toString("utf8")), { filename, cachedData });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, requireOf(module, Module), module, filename, distDir);
  };
  resolveSiblingsDirectly(distDir, Module);
}

/** The module's own require, as Node's loader gives a file (its Module's require, resolution from
 * it): Module.createRequire(filename) would build a second Module and search-path list for it. */
function requireOf(module: CommonJsModule, Module: CommonJsModuleClass): NodeJS.Require {
  const require = ((id: string) => module.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) => Module._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
  require.resolve = resolve;
  require.cache = Module._cache;
  require.main = process.mainModule; // as Node's own require of a file has it
  return require;
}

function resolveSiblingsDirectly(distDir: string, Module: CommonJsModuleClass): void {
  const resolve = Module._resolveFilename;
  let files: Set<string> | undefined;
  Module._resolveFilename = function (request, parent, ...rest) {
    if (SIBLING.test(request) && parent?.filename && path.dirname(parent.filename) === distDir) {
      files ??= new Set(fs.readdirSync(distDir));
      const name = request.slice(2);
      if (files.has(name)) return path.join(distDir, name);
    }
    return resolve.call(this, request, parent, ...rest);
  };
}

/** Build time: the cache of every .js file of `distDir`, as compiled (its top level only). */
export function writeCodeCache(distDir: string): number {
  fs.mkdirSync(path.join(distDir, CODE_CACHE_DIR), { recursive: true });
  let written = 0;
  for (const name of fs.readdirSync(distDir).filter((n) => n.endsWith(".js"))) {
    const filename = path.join(distDir, name);
    const data = new vm.Script(wrap(fs.readFileSync(filename, "utf8")), { filename }).createCachedData();
    replaceCachedData(distDir, name, data);
    written++;
  }
  return written;
}

/** Build time: `data` becomes the cache of dist/NAME (data V8 made from the script of that very
 * file, wrapped as above: build/code-cache.mjs takes it after runs, with every function they ran). */
export function replaceCachedData(distDir: string, name: string, data: Buffer): void {
  const bytes = fs.readFileSync(path.join(distDir, name));
  const length = Buffer.alloc(LENGTH_BYTES);
  length.writeUInt32BE(bytes.length, 0);
  fs.writeFileSync(path.join(distDir, CODE_CACHE_DIR, `${name}.v8`), Buffer.concat([length, bytes, data]));
}

function cachedDataFor(distDir: string, filename: string, source: Buffer): Buffer | undefined {
  let stored: Buffer;
  try {
    stored = fs.readFileSync(path.join(distDir, CODE_CACHE_DIR, `${path.basename(filename)}.v8`));
  } catch {
    return undefined;
  }
  const start = LENGTH_BYTES + source.length;
  if (stored.length <= start || stored.readUInt32BE(0) !== source.length || !stored.subarray(LENGTH_BYTES, start).equals(source)) return undefined;
  return stored.subarray(start);
}
