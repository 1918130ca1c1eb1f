// bench/startup: start-up of `hello.py` (SPEC §12), every variant interleaved in one run so that
// machine noise hits them alike. Each round runs, in an order that rotates from round to round:
//   python3      python3 hello.py
//   bare node    a Node script that only spawns python3 hello.py and waits (the floor no Node CLI
//                can beat)
//   unconfigured aiython hello.py in a project without aiython.toml and no model in the environment
//   configured   aiython hello.py in a project whose aiython.toml names a model at a loopback
//                address (nothing fails, so the model is never contacted), in the environment as
//                it is: under PYTHONDONTWRITEBYTECODE=1 nothing is written to the preparation
//                cache, so every run prepares hello.py afresh (parse, checkpoints, compile)
//   configured, warm cache
//                the same in a project of its own with PYTHONDONTWRITEBYTECODE unset, so the
//                preparation cache holds hello.py after the warm-up runs: what a user sees from
//                the second run on (the same as the row above when the variable is not set)
// each with and without NODE_EXTRA_CA_CERTS (which makes Node parse a CA bundle before any code
// runs; the bundle of the environment, else the system's). Each run is timed by a small Python
// harness (fork, exec, wait4) that reports its wall time and its CPU time (user + system of the
// whole process tree: the program's interpreter included), so that on a busy machine the CPU
// columns still say what each variant costs. Prints the median of each variant and the medians of
// the per-round differences that the budgets name (the verdicts are on wall time, the budgets'
// own measure; CPU time is printed beside them):
//   aiython unconfigured − python3        ≤ 80 ms
//   aiython unconfigured − bare node      ≤ 10 ms
//   aiython configured − unconfigured     ≤ 15 ms   (cold, and warm preparation cache)
// With --against ROOT (another checkout, built), its bin/aiython runs as two more variants in the
// same rounds (in project folders of its own: the configuration's stamp in a project is per
// build), and the differences this build − that one are printed too (an A/B of a change).
//   npm run build && node --import tsx bench/startup.ts [rounds] [--against /path/to/other/checkout]

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(ROOT, "bin", "aiython");
const againstAt = process.argv.indexOf("--against");
const OTHER_CLI = againstAt > 0 ? path.join(path.resolve(process.argv[againstAt + 1]), "bin", "aiython") : null;
const rounds = Number(process.argv.slice(2).find((a, i, all) => /^\d+$/.test(a) && all[i - 1] !== "--against") ?? 30);
const SYSTEM_CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";

const python = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-bench-"));

/** A project folder (a .git marks its root) holding hello.py and, optionally, aiython.toml. */
function project(name: string, toml: string | null): string {
  const root = path.join(dir, name);
  fs.mkdirSync(path.join(root, ".git"), { recursive: true });
  fs.writeFileSync(path.join(root, "hello.py"), 'print("hello")\n');
  if (toml !== null) fs.writeFileSync(path.join(root, "aiython.toml"), toml);
  return path.join(root, "hello.py");
}
const CONFIGURED_TOML = 'version = 3\nmodel = { model = "bench-model", api_base = "http://127.0.0.1:9/v1" }\n';
const plainHello = project("plain", null);
const configuredHello = project("configured", CONFIGURED_TOML);
// The other checkout runs in projects of its own: each build keeps its own stamp of the checked
// configuration in the project (.aiython/cache/config.json, keyed by the build), and two builds
// sharing a project would each find the other's there on every run.
const otherPlainHello = project("other-plain", null);
const otherConfiguredHello = project("other-configured", CONFIGURED_TOML);
const warmHello = project("configured-warm", CONFIGURED_TOML);
const otherWarmHello = project("other-configured-warm", CONFIGURED_TOML);
const floor = path.join(dir, "floor.mjs");
fs.writeFileSync(
  floor,
  `import { spawn } from "node:child_process";
spawn(process.argv[2], process.argv.slice(3), { stdio: "inherit" }).on("close", (code) => { process.exitCode = code; });\n`,
);

const base: NodeJS.ProcessEnv = { ...process.env, AIYTHON_PYTHON: python };
for (const key of Object.keys(base)) if (key.startsWith("OPENAI_") || key.startsWith("AIYTHON_MODEL") || key === "AIYTHON_PROFILE") delete base[key];
const caBundle = base.NODE_EXTRA_CA_CERTS ?? (fs.existsSync(SYSTEM_CA_BUNDLE) ? SYSTEM_CA_BUNDLE : null);
const withCa: NodeJS.ProcessEnv = { ...base, ...(caBundle ? { NODE_EXTRA_CA_CERTS: caBundle } : {}) };
const withoutCa: NodeJS.ProcessEnv = { ...base };
delete withoutCa.NODE_EXTRA_CA_CERTS;

interface Variant {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Run with PYTHONDONTWRITEBYTECODE unset: the preparation cache is written, then hit. */
  warm?: boolean;
  times: number[];
  cpu: number[];
}

const programs = [
  { name: "python3", command: python, args: [plainHello] },
  { name: "bare node", command: process.execPath, args: [floor, python, plainHello] },
  { name: "unconfigured", command: CLI, args: [plainHello] },
  { name: "configured", command: CLI, args: [configuredHello] },
  { name: "configured warm", command: CLI, args: [warmHello], warm: true },
  ...(OTHER_CLI
    ? [
        { name: "other unconfigured", command: OTHER_CLI, args: [otherPlainHello] },
        { name: "other configured", command: OTHER_CLI, args: [otherConfiguredHello] },
        { name: "other configured warm", command: OTHER_CLI, args: [otherWarmHello], warm: true },
      ]
    : []),
];
const warmEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
  const copy = { ...env };
  delete copy.PYTHONDONTWRITEBYTECODE;
  return copy;
};
const envs = caBundle
  ? [
      { label: "with CA", env: withCa },
      { label: "without CA", env: withoutCa },
    ]
  : [{ label: "without CA", env: withoutCa }];
const variants: Variant[] = envs.flatMap(({ label, env }) => programs.map((p) => ({ ...p, name: `${p.name}, ${label}`, env: p.warm ? warmEnv(env) : env, times: [], cpu: [] })));
const byName = (name: string) => variants.find((v) => v.name === name) as Variant;

/** Forks, execs and waits for argv (in cwd, with the inherited environment); writes {wall, cpu, status} to fd 3. */
const HARNESS = `import json, os, sys, time
os.set_inheritable(3, False)
cwd, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.chdir(cwd)
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = (time.perf_counter() - start) * 1000
os.write(3, json.dumps({"wall": wall, "cpu": (usage.ru_utime + usage.ru_stime) * 1000, "status": os.waitstatus_to_exitcode(status)}).encode())
`;

function time(v: Variant): { wall: number; cpu: number } {
  const cwd = path.dirname(v.args[v.args.length - 1]);
  const result = spawnSync(python, ["-c", HARNESS, cwd, v.command, ...v.args], { env: v.env, stdio: ["ignore", "pipe", "pipe", "pipe"] });
  const report = JSON.parse(String(result.output[3] ?? "null") || "null") as { wall: number; cpu: number; status: number } | null;
  if (result.status !== 0 || !report || report.status !== 0 || String(result.stdout) !== "hello\n" || String(result.stderr) !== "") {
    throw new Error(`${v.name} failed (${report?.status ?? result.status}): ${result.stderr}`);
  }
  return { wall: report.wall, cpu: report.cpu };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

for (const v of variants) for (let i = 0; i < 2; i++) time(v); // warm the page cache
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < variants.length; k++) {
    const v = variants[(k + round) % variants.length];
    const { wall, cpu } = time(v);
    v.times.push(wall);
    v.cpu.push(cpu);
  }
}
fs.rmSync(dir, { recursive: true, force: true });

/** Median over rounds of (a − b), both measured in the same round: wall time, and CPU time. */
const diff = (a: string, b: string) => median(byName(a).times.map((t, i) => t - byName(b).times[i]));
const cpuDiff = (a: string, b: string) => median(byName(a).cpu.map((t, i) => t - byName(b).cpu[i]));
const verdict = (a: string, b: string, budget: number) => {
  const ms = diff(a, b);
  return `${ms.toFixed(1).padStart(6)} ms (budget ≤ ${budget} ms) ${ms <= budget ? "within budget" : "OVER BUDGET"}; CPU ${cpuDiff(a, b).toFixed(1)} ms`;
};

console.log(
  `interpreter: ${python}; ${rounds} rounds, ${variants.length} variants interleaved; medians; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
for (const v of variants) console.log(`  ${v.name.padEnd(34)} ${median(v.times).toFixed(1).padStart(7)} ms   CPU ${median(v.cpu).toFixed(1).padStart(7)} ms`);
for (const { label } of envs) {
  console.log(`${label}${label === "with CA" ? ` (NODE_EXTRA_CA_CERTS=${caBundle})` : ""}:`);
  console.log(`  unconfigured − python3      ${verdict(`unconfigured, ${label}`, `python3, ${label}`, 80)}`);
  console.log(`  unconfigured − bare node    ${verdict(`unconfigured, ${label}`, `bare node, ${label}`, 10)}`);
  console.log(`  configured − unconfigured   ${verdict(`configured, ${label}`, `unconfigured, ${label}`, 15)}`);
  console.log(`  configured warm − unconf.   ${verdict(`configured warm, ${label}`, `unconfigured, ${label}`, 15)}`);
  if (OTHER_CLI) {
    for (const kind of ["unconfigured", "configured", "configured warm"]) {
      const a = `${kind}, ${label}`,
        b = `other ${kind}, ${label}`;
      console.log(`  ${`${kind}: this − ${OTHER_CLI}`.padEnd(27)} ${diff(a, b).toFixed(1).padStart(6)} ms; CPU ${cpuDiff(a, b).toFixed(1)} ms`);
    }
  }
}
