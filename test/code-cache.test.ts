// The V8 code cache of dist/ (src/cli/code-cache.ts, SPEC §12 start-up budget): the build writes
// a cache V8 accepts for every file a run loads, and a cache that no longer matches its file, or
// whose data V8 cannot use, changes nothing but speed. Each case runs a copy of the built CLI
// (bin/ and dist/, with the bridge and node_modules linked) under a hook that records, for every
// script of dist/ compiled, whether it came with cached data and whether V8 rejected it. The data
// of a file start-up loads is taken after the build's runs of hello.py, and of a file only a first
// block loads after its run of a program with AI blocks (build/train-code-cache.mjs).

import assert from "node:assert/strict";
import fs from "node:fs";
import Module from "node:module";
import path from "node:path";
import vm from "node:vm";
import { test } from "node:test";
import { execa } from "execa";
import { installCodeCache, type CommonJsModuleClass } from "../src/cli/code-cache.js";
import { cleanEnv, ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const PROBE = `const vm = require("node:vm"), fs = require("node:fs");
const Script = vm.Script, seen = [];
vm.Script = class extends Script {
  constructor(source, options) {
    super(source, options);
    if (options && String(options.filename).includes("/dist/")) seen.push({ file: require("node:path").basename(options.filename), cached: Boolean(options.cachedData), rejected: this.cachedDataRejected === true });
  }
};
process.on("exit", () => fs.writeFileSync(process.env.SCRIPTS_FILE, JSON.stringify(seen)));
`;

interface Compiled {
  file: string;
  cached: boolean;
  rejected: boolean;
}

/** A copy of the built CLI that a case may spoil. */
function copyOfBuild(): string {
  const root = tempProject({}, { git: false, prefix: "aiython-build-" });
  fs.cpSync(path.join(ROOT, "bin"), path.join(root, "bin"), { recursive: true });
  fs.cpSync(path.join(ROOT, "dist"), path.join(root, "dist"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(root, "package.json"));
  for (const linked of ["bridge-py", "node_modules"]) fs.symlinkSync(path.join(ROOT, linked), path.join(root, linked));
  return root;
}

async function run(build: string): Promise<Compiled[]> {
  const project = tempProject({ "hello.py": 'import sys\nprint("hello", sys.argv[1:])\n' });
  const probe = path.join(project, "probe.cjs");
  const record = path.join(project, "scripts.json");
  fs.writeFileSync(probe, PROBE);
  // Node with the V8 flags bin/aiython's sh line gives it, under which the cache was recorded.
  const flags =
    /exec node((?: --[\w-]+(?:=\S+)?)*) "\$0"/
      .exec(fs.readFileSync(path.join(build, "bin", "aiython"), "utf8"))?.[1]
      .split(" ")
      .filter(Boolean) ?? [];
  const result = await execa(process.execPath, [...flags, "-r", probe, path.join(build, "bin", "aiython"), "hello.py", "x"], {
    cwd: project,
    env: cleanEnv({ SCRIPTS_FILE: record }),
    extendEnv: false,
    reject: false,
  });
  assert.equal(result.stdout, "hello ['x']");
  assert.equal(result.stderr, "");
  assert.equal(result.exitCode, 0);
  return JSON.parse(fs.readFileSync(record, "utf8")) as Compiled[];
}

const cacheOf = (build: string, file: string) => path.join(build, "dist", "code-cache", `${file}.v8`);

test("every file of dist/ a run loads comes with cached data that V8 accepts", async () => {
  const compiled = await run(copyOfBuild());
  assert.ok(
    compiled.some((c) => c.file === "cli.js"),
    "dist/cli.js goes through the code cache",
  );
  assert.deepEqual(
    compiled.filter((c) => !c.cached || c.rejected),
    [],
  );
});

test("the cache of a file start-up loads holds more than its top level: the functions the build's runs of hello.py compiled", async () => {
  const compiled = await run(copyOfBuild());
  for (const file of ["cli.js", compiled.find((c) => c.file.startsWith("start-run-"))!.file]) {
    const { trained, topLevel } = trainedAndTopLevel(file);
    assert.ok(trained > topLevel * 1.3, `${file}: ${trained} bytes of data, ${topLevel} for its top level alone`);
  }
});

/** Bytes of V8 data in `file`'s stored cache, and in the cache of its top level alone. */
function trainedAndTopLevel(file: string): { trained: number; topLevel: number } {
  const stored = fs.readFileSync(cacheOf(ROOT, file));
  const source = fs.readFileSync(path.join(ROOT, "dist", file), "utf8");
  const topLevel = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`).createCachedData();
  return { trained: stored.length - 4 - stored.readUInt32BE(0), topLevel: topLevel.length };
}

test("the cache of a file only a first block loads holds what the build's run of a program with AI blocks compiled", () => {
  const runner = fs.readdirSync(path.join(ROOT, "dist")).find((f) => /^invocation-runner-.*\.js$/.test(f));
  assert.ok(runner, "dist/ has the invocation runner's chunk");
  const { trained, topLevel } = trainedAndTopLevel(runner);
  assert.ok(trained > topLevel * 1.3, `${runner}: ${trained} bytes of data, ${topLevel} for its top level alone`);
});

test("a file that no longer matches its cache is compiled from its source", async () => {
  const build = copyOfBuild();
  fs.appendFileSync(path.join(build, "dist", "cli.js"), "\n// edited after the build\n");
  const compiled = await run(build);
  assert.deepEqual(
    compiled.find((c) => c.file === "cli.js"),
    { file: "cli.js", cached: false, rejected: false },
  );
  assert.ok(
    compiled.filter((c) => c.file !== "cli.js").every((c) => c.cached && !c.rejected),
    "the others still use theirs",
  );
});

test("cached data V8 cannot use, a truncated cache and a missing one change nothing but speed", async () => {
  const build = copyOfBuild();
  const spoiled = fs.readFileSync(cacheOf(build, "cli.js"));
  const sourceEnd = 4 + spoiled.readUInt32BE(0);
  spoiled.fill(0x5a, sourceEnd); // the source copy intact, V8's part garbage
  fs.writeFileSync(cacheOf(build, "cli.js"), spoiled);
  const first = await run(build);
  const runName = first.find((c) => c.file.startsWith("run-") && !c.file.startsWith("start-run"))!.file;
  const programName = first.find((c) => c.file.startsWith("start-run-"))!.file;
  assert.deepEqual(
    first.find((c) => c.file === "cli.js"),
    { file: "cli.js", cached: true, rejected: true },
  );
  fs.truncateSync(cacheOf(build, runName), 10);
  fs.rmSync(cacheOf(build, programName));
  const second = await run(build);
  for (const file of [runName, programName])
    assert.deepEqual(
      second.find((c) => c.file === file),
      { file, cached: false, rejected: false },
    );
});

test("a file's require of another file of its folder finds it, and of a missing one fails as Node's own", () => {
  const dir = fs.realpathSync(
    tempProject(
      {
        "a.js": 'module.exports = { b: require("./b.js"), resolved: require.resolve("./b.js"), sub: require("./sub/c.js") };',
        "b.js": "module.exports = 42;",
        "sub/c.js": 'module.exports = "c";',
        "broken.js": 'require("./missing.js");',
      },
      { git: false, prefix: "aiython-siblings-" },
    ),
  );
  installCodeCache(dir, Module as unknown as CommonJsModuleClass);
  const required = Module.createRequire(path.join(dir, "index.js"));
  assert.deepEqual(required("./a.js"), { b: 42, resolved: path.join(dir, "b.js"), sub: "c" });
  assert.throws(
    () => required("./broken.js"),
    (error: NodeJS.ErrnoException) => error.code === "MODULE_NOT_FOUND" && /missing\.js/.test(error.message),
  );
});
