// bench/startup-instructions: the interpreter's share of start-up (SPEC §12), counted in machine
// instructions by valgrind's callgrind, which a busy machine does not change (the wall-time rows
// of startup.ts do: on 2 shared cores they can be off by more than the budgets). For hello.py,
// the instructions the interpreter process executes from exec to exit:
//   python3         python3 hello.py
//   unconfigured    the interpreter aiython starts, in a project without aiython.toml
//   configured      the same with a model in aiython.toml, PYTHONDONTWRITEBYTECODE=1: hello.py is
//                   prepared afresh (parse, checkpoints, compile), nothing is written
//   configured warm the same with the variable unset, after a run that filled the preparation
//                   cache: what a user's second run does
// Each is counted twice (the two counts differ by up to ~0.7 M, from hash seeds, addresses and
// the threads' interleaving), and the differences of their means, configured − unconfigured and
// unconfigured − python3, are printed in millions; about 0.4 ms per million on this machine's 3.11 (ast's import: 6.1 M,
// 2.4 ms). The host (Node) is not counted: its JIT makes its counts vary by about 1 %.
// With --against ROOT, that checkout's bin/aiython is counted too, in projects of its own. With
// --python PATH, that interpreter is counted instead of python3 (3.12 and 3.13 here have no site
// packages that import re, enum, functools… at start, so what the bridge imports shows in full);
// its bytecode of the bridge must be written first (one run with PYTHONDONTWRITEBYTECODE unset),
// or the counts include compiling the bridge.
//   npm run build && node --import tsx bench/startup-instructions.ts [--against /path/to/other/checkout] [--python PATH]
// With --whole, the whole command instead (startup-instructions/whole-command.ts): bin/aiython with
// its sh shim, Node and Python together, against python3 and a bare Node spawner, next to the
// wall clock.
//   npm run build && node --import tsx bench/startup-instructions.ts --whole [rounds] [--against ROOT]

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIGURED_TOML, helloProject } from "./startup-instructions/hello-project.js";

if (process.argv.includes("--whole")) {
  await import("./startup-instructions/whole-command.js");
  process.exit(0);
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const againstAt = process.argv.indexOf("--against");
const clis = [{ label: "this", cli: path.join(ROOT, "bin", "aiython") }];
if (againstAt > 0) clis.push({ label: "other", cli: path.join(path.resolve(process.argv[againstAt + 1]), "bin", "aiython") });

if (spawnSync("valgrind", ["--version"]).status !== 0) {
  console.error("bench/startup-instructions needs valgrind (apt-get install valgrind)");
  process.exit(2);
}
const pythonAt = process.argv.indexOf("--python");
const python = spawnSync(pythonAt > 0 ? process.argv[pythonAt + 1] : "python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-instructions-"));
const TOML = CONFIGURED_TOML;

const project = (name: string, toml: string | null) => helloProject(dir, name, toml);

/** An interpreter that runs python3 under callgrind, writing its count to OUT (AIYTHON_PYTHON). */
const wrapper = path.join(dir, "counted-python");
fs.writeFileSync(wrapper, `#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file="$COUNT_OUT" -q ${python} "$@"\n`, { mode: 0o755 });

const env: NodeJS.ProcessEnv = { ...process.env, AIYTHON_PYTHON: python, PYTHONDONTWRITEBYTECODE: "1" };
for (const key of Object.keys(env)) if (key.startsWith("OPENAI_") || key.startsWith("AIYTHON_MODEL") || key === "AIYTHON_PROFILE") delete env[key];
const warmEnv: NodeJS.ProcessEnv = { ...env };
delete warmEnv.PYTHONDONTWRITEBYTECODE;

function count(command: string, cwd: string, runEnv: NodeJS.ProcessEnv, counted: boolean): number {
  const out = path.join(dir, "count.out");
  fs.rmSync(out, { force: true });
  const args = counted ? ["hello.py"] : ["--tool=callgrind", `--callgrind-out-file=${out}`, "-q", python, "hello.py"];
  const result = spawnSync(counted ? command : "valgrind", args, {
    cwd,
    encoding: "utf8",
    env: { ...runEnv, ...(counted ? { AIYTHON_PYTHON: wrapper } : {}), COUNT_OUT: out },
  });
  if (result.status !== 0 || result.stdout !== "hello\n") throw new Error(`${command} in ${cwd} failed: ${result.stderr}`);
  const summary = /^summary: (\d+)$/m.exec(fs.readFileSync(out, "utf8"));
  if (!summary) throw new Error(`no count from ${command}`);
  return Number(summary[1]) / 1e6;
}

const twice = (work: () => number) => [work(), work()];
const rows: [string, number[]][] = [["python3", twice(() => count(python, project("python3", null), env, false))]];
for (const { label, cli } of clis) {
  const plain = project(`${label}-plain`, null),
    configured = project(`${label}-configured`, TOML),
    warm = project(`${label}-warm`, TOML);
  spawnSync(cli, ["hello.py"], { cwd: warm, env: warmEnv }); // fills the preparation cache
  spawnSync(cli, ["hello.py"], { cwd: configured, env }); // the configuration's stamp
  rows.push([`${label} unconfigured`, twice(() => count(cli, plain, env, true))]);
  rows.push([`${label} configured`, twice(() => count(cli, configured, env, true))]);
  rows.push([`${label} configured warm`, twice(() => count(cli, warm, warmEnv, true))]);
}
fs.rmSync(dir, { recursive: true, force: true });

const of = (name: string) => {
  const counts = (rows.find(([n]) => n === name) as [string, number[]])[1];
  return counts.reduce((a, b) => a + b, 0) / counts.length;
};
console.log(`interpreter: ${python}; instructions of the interpreter process, millions (two counts each)`);
for (const [name, counts] of rows) console.log(`  ${name.padEnd(26)} ${counts.map((c) => c.toFixed(2).padStart(8)).join(" ")}`);
for (const { label } of clis) {
  console.log(`${label}:`);
  console.log(`  unconfigured − python3          ${(of(`${label} unconfigured`) - of("python3")).toFixed(2).padStart(7)} M`);
  console.log(`  configured − unconfigured       ${(of(`${label} configured`) - of(`${label} unconfigured`)).toFixed(2).padStart(7)} M`);
  console.log(`  configured warm − unconfigured  ${(of(`${label} configured warm`) - of(`${label} unconfigured`)).toFixed(2).padStart(7)} M`);
}
