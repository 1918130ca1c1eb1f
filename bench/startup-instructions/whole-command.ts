// bench/startup-instructions --whole: start-up of the whole command as users run it (issue 35), counted in
// machine instructions by valgrind's callgrind following every process (--trace-children): for
// `bin/aiython hello.py`, its sh shim's exec of Node, Node, the interpreter it spawns and what that
// runs (here python3 is pyenv's shim: bash scripts, then CPython), against `python3 hello.py` and a
// bare Node spawner (`node -e` spawning python3 hello.py and waiting for it) counted the same way.
// A count a busy machine does not change, next to the wall clock (median of runs without valgrind,
// as startup.ts times them) that it does. Rows: python3, the bare spawner, aiython unconfigured, and
// aiython configured with a warm preparation cache. The sh shim's few instructions before its exec
// are not in the count (callgrind writes one file per process, and the exec'd Node's replaces it).
// Under valgrind Node runs about 50x slower: a round takes minutes.
//   npm run build && node --import tsx bench/startup-instructions.ts --whole [rounds] [--against ROOT]

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIGURED_TOML, helloProject } from "./hello-project.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const againstAt = process.argv.indexOf("--against");
const clis = [{ label: "this", cli: path.join(ROOT, "bin", "aiython") }];
if (againstAt > 0) clis.push({ label: "other", cli: path.join(path.resolve(process.argv[againstAt + 1]), "bin", "aiython") });
const argv = process.argv.slice(2).filter((a) => a !== "--whole");
const rounds = Number(argv[0] !== undefined && !argv[0].startsWith("--") ? argv[0] : 1);
const WALL_RUNS = 9;

if (spawnSync("valgrind", ["--version"]).status !== 0) {
  console.error("bench/startup-instructions --whole needs valgrind (apt-get install valgrind)");
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-whole-"));
const TOML = CONFIGURED_TOML;
const env: NodeJS.ProcessEnv = { ...process.env };
for (const key of Object.keys(env)) if (key.startsWith("OPENAI_") || key.startsWith("AIYTHON_") || key === "PYTHONDONTWRITEBYTECODE") delete env[key];

const project = (name: string, toml: string | null) => helloProject(dir, name, toml);

const SPAWNER = 'require("child_process").spawnSync("python3", ["hello.py"], { stdio: "inherit" })';

/** Instructions (millions) of `command` and every process it starts, and how many processes. */
function counted(command: string[], cwd: string): { total: number; processes: number } {
  const out = path.join(dir, "counts");
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out);
  const args = ["--tool=callgrind", "--trace-children=yes", `--callgrind-out-file=${out}/cg.%p`, "-q", ...command];
  const result = spawnSync("valgrind", args, { cwd, env, encoding: "utf8" });
  if (result.status !== 0 || result.stdout !== "hello\n") throw new Error(`${command.join(" ")} failed: ${result.stderr}`);
  let total = 0;
  const files = fs.readdirSync(out);
  for (const file of files) total += Number(/^summary: (\d+)$/m.exec(fs.readFileSync(path.join(out, file), "utf8"))?.[1] ?? 0);
  return { total: total / 1e6, processes: files.length };
}

function wall(command: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command[0], command.slice(1), { cwd, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command.join(" ")} failed: ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows: { name: string; command: string[]; cwd: string }[] = [
  { name: "python3 hello.py", command: ["python3", "hello.py"], cwd: project("python3", null) },
  { name: "bare Node spawner", command: ["node", "-e", SPAWNER], cwd: project("spawner", null) },
];
for (const { label, cli } of clis) {
  rows.push({ name: `${label} unconfigured`, command: [cli, "hello.py"], cwd: project(`${label}-plain`, null) });
  const warm = project(`${label}-warm`, TOML);
  spawnSync(cli, ["hello.py"], { cwd: warm, env }); // the preparation cache and the configuration's stamp
  rows.push({ name: `${label} configured warm`, command: [cli, "hello.py"], cwd: warm });
}
const counts = new Map<string, number[]>(rows.map((r) => [r.name, []]));
const processes = new Map<string, number>();
const walls = new Map<string, number[]>(rows.map((r) => [r.name, []]));
for (let round = 0; round < rounds; round++) {
  for (const row of round % 2 === 0 ? rows : [...rows].reverse()) {
    const c = counted(row.command, row.cwd);
    counts.get(row.name)!.push(c.total);
    processes.set(row.name, c.processes);
  }
}
for (let run = 0; run < WALL_RUNS; run++) for (const row of run % 2 === 0 ? rows : [...rows].reverse()) walls.get(row.name)!.push(wall(row.command, row.cwd));
fs.rmSync(dir, { recursive: true, force: true });

const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(", ");
const spawnerCount = median(counts.get("bare Node spawner")!);
const spawnerWall = median(walls.get("bare Node spawner")!);
console.log(`instructions of the whole command, every process (millions, median of ${rounds}), and wall clock (ms, median of ${WALL_RUNS})`);
for (const row of rows) {
  const c = median(counts.get(row.name)!);
  const w = median(walls.get(row.name)!);
  const over =
    row.name.startsWith("python3") || row.name.startsWith("bare") ? "" : `; over the bare spawner ${(c - spawnerCount).toFixed(1)} M, ${(w - spawnerWall).toFixed(1)} ms`;
  console.log(`  ${row.name.padEnd(26)} ${c.toFixed(1).padStart(8)} M in ${processes.get(row.name)} processes  ${w.toFixed(1).padStart(7)} ms${over}`);
}
console.log(`load average: ${load} (2 cores; the counts do not move with it, the wall clock does)`);
