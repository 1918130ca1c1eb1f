// bin/aiython's first file starts the interpreter of a program run before it reads anything else
// of the CLI (src/cli/early-loader.ts, early-spawn.ts: SPEC §12 start-up), and the CLI adopts that
// process: one interpreter, the program's output. A command line that runs no program starts none.
// The built CLI runs under a require hook that logs, in order, each file of dist/ it loads and
// each process it spawns.

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { aiython, cleanEnv } from "./support/run-cli.js";

const HOOK = `const Module = require("node:module");
const cp = require("node:child_process");
const fs = require("node:fs");
const log = (line) => fs.appendFileSync(process.env.EARLY_LOG, line + "\\n");
const load = Module.prototype.load;
Module.prototype.load = function (filename) {
  if (filename.includes("/dist/")) log("load " + filename.slice(filename.lastIndexOf("/dist/") + 1));
  return load.call(this, filename);
};
const spawn = cp.spawn;
cp.spawn = function (command, args, ...rest) {
  log("spawn " + (Array.isArray(args) ? args.join(" ") : ""));
  return spawn.call(this, command, args, ...rest);
};
`;

function logged(args: string[]): Promise<{ out: string; lines: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-early-"));
  const hook = path.join(dir, "hook.cjs");
  const logFile = path.join(dir, "log");
  fs.writeFileSync(hook, HOOK);
  fs.writeFileSync(path.join(dir, "hello.py"), 'print("hello")\n');
  return aiython(args, { cwd: dir, env: cleanEnv({ NODE_OPTIONS: `--require ${hook}`, EARLY_LOG: logFile }) }).then((ran) => {
    assert.equal(ran.exitCode, 0, ran.stderr);
    const lines = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").trimEnd().split("\n") : [];
    fs.rmSync(dir, { recursive: true, force: true });
    return { out: ran.stdout, lines };
  });
}

test("a program run's interpreter starts before dist/early.js is read, and is the one that runs the program", async () => {
  const { out, lines } = await logged(["hello.py"]);
  assert.equal(out, "hello\n");
  const spawns = lines.filter((line) => line.startsWith("spawn "));
  assert.equal(spawns.length, 1, lines.join("\n"));
  assert.match(spawns[0], /importlib_bootstrap\.py$/);
  assert.deepEqual(lines.slice(0, 2), ["load dist/early.cjs", spawns[0]], lines.join("\n"));
  assert.ok(lines.indexOf("load dist/early.js") > 1, lines.join("\n"));
});

test("a command line that runs no program starts no interpreter early", async () => {
  const { lines } = await logged(["--version"]);
  assert.deepEqual(
    lines.filter((line) => line.startsWith("spawn ")),
    [],
  );
});
