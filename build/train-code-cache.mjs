// Build step: the V8 cache of the files start-up loads, taken after runs of hello.py (SPEC §12
// start-up budgets). Compiling a file at build time gives V8's data for its top level only; every
// function a run calls is then compiled at run time, at every start. So the built CLI runs
// hello.py here, unconfigured and with a model in aiython.toml (cold and warm preparation cache;
// the model at a loopback address is never contacted), each run under
// build/code-cache-recorder.cjs, which takes each loaded file's data at exit; that data replaces
// the file's cache (src/cli/code-cache.ts replaceCachedData), and the next run starts from it, so
// the last holds what all of them compiled. Last, a program with AI blocks runs against the
// instant model (build/train-blocks.mjs serves it): its data is kept only for the files the hello.py
// runs did not load (the invocation runner, the frontend…), so a first block compiles little and
// start-up's files stay as the hello.py runs left them. A run that fails (no python3 here) ends
// the training, and the files keep the data they had: correct, only slower.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RECORDER = path.join(HERE, "code-cache-recorder.cjs");
const BLOCKS_DRIVER = path.join(HERE, "train-blocks.mjs");
const HELLO = { name: "hello.py", text: 'print("hello")\n', stdout: "hello\n" };
/** Blocks the instant model finishes with 0; the same statement reached again, as programs do. */
const BLOCKS = { name: "blocks.py", text: "total = 0\nfor i in range(3):\n    n: int = pick a number close to i\n    total += n\nprint(total)\n", stdout: "0\n" };
const RUN_TIMEOUT_MS = 60_000; // a run that hangs ends the training, as one that fails does
const TOML = 'version = 3\nmodel = { model = "build-model", api_base = "http://127.0.0.1:9/v1" }\n';

/** Runs hello.py (and a program with AI blocks) through the CLI of `distDir` and hands each loaded file's data to `replace`; the runs that succeeded. */
export function trainCodeCache(distDir, replace) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-build-cache-"));
  try {
    const plain = project(dir, "plain", null, HELLO);
    const configured = project(dir, "configured", TOML, HELLO);
    const blocks = project(dir, "blocks", null, BLOCKS);
    const runs = [
      { cwd: plain, env: { PYTHONDONTWRITEBYTECODE: "1" }, program: HELLO },
      { cwd: configured, env: { PYTHONDONTWRITEBYTECODE: "1" }, program: HELLO },
      { cwd: configured, env: {}, program: HELLO }, // writes hello.py's preparation
      { cwd: configured, env: {}, program: HELLO }, // and finds it
      { cwd: blocks, env: { PYTHONDONTWRITEBYTECODE: "1" }, program: BLOCKS, newFilesOnly: true },
    ];
    const trained = new Set();
    let done = 0;
    for (const run of runs) {
      const data = recordedRun(distDir, dir, run);
      if (data === null) break;
      for (const [name, base64] of Object.entries(data)) {
        if (run.newFilesOnly && trained.has(name)) continue;
        replace(distDir, name, Buffer.from(base64, "base64"));
        trained.add(name);
      }
      done++;
    }
    return done;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function project(dir, name, toml, program) {
  const root = path.join(dir, name);
  fs.mkdirSync(path.join(root, ".git"), { recursive: true });
  fs.writeFileSync(path.join(root, program.name), program.text);
  if (toml !== null) fs.writeFileSync(path.join(root, "aiython.toml"), toml);
  return root;
}

function recordedRun(distDir, dir, run) {
  const record = path.join(dir, "record.json");
  fs.rmSync(record, { force: true });
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("AIYTHON_") || key.startsWith("OPENAI_") || key === "PYTHONDONTWRITEBYTECODE" || key === "NODE_OPTIONS") delete env[key];
  }
  Object.assign(env, run.env, { AIYTHON_BUILD_CACHE_RECORD: record, AIYTHON_BUILD_CACHE_DIST: distDir });
  const cli = path.join(distDir, "..", "bin", "aiython");
  const flags = shimFlags(cli);
  const args = run.program === BLOCKS ? [...flags, BLOCKS_DRIVER, RECORDER, cli, BLOCKS.name] : [...flags, "-r", RECORDER, cli, run.program.name];
  const result = spawnSync(process.execPath, args, { cwd: run.cwd, env, encoding: "utf8", timeout: RUN_TIMEOUT_MS });
  if (result.status !== 0 || result.stdout !== run.program.stdout || !fs.existsSync(record)) return null;
  return JSON.parse(fs.readFileSync(record, "utf8"));
}

/**
 * The V8 flags bin/aiython's sh line gives Node (`exec node --flag… "$0"`): the code cache is
 * recorded under them, since V8 rejects data made under other flags (every file is then compiled
 * afresh: about 80 million more instructions at start-up).
 */
function shimFlags(cli) {
  const line = /exec node((?: --[\w-]+(?:=\S+)?)*) "\$0"/.exec(fs.readFileSync(cli, "utf8"));
  if (!line) throw new Error(`${cli}: no 'exec node … "$0"' line to read Node's flags from`);
  return line[1].split(" ").filter(Boolean);
}
