// bench/startup: start-up of `hello.py` (SPEC §12), every variant interleaved in one run so that
// machine noise hits them alike. Each round runs, in an order that rotates from round to round:
//   python3      python3 hello.py
//   bare node    a Node script that only spawns python3 hello.py and waits (the floor no Node CLI
//                can beat)
//   unconfigured aiython hello.py in a project without aiython.toml and no model in the environment
//   configured   aiython hello.py in a project whose aiython.toml names a model at a loopback
//                address (nothing fails, so the model is never contacted)
// each with and without NODE_EXTRA_CA_CERTS (which makes Node parse a CA bundle before any code
// runs; the bundle of the environment, else the system's). Prints the median of each variant and
// the medians of the per-round differences that the budgets name:
//   aiython unconfigured − python3        ≤ 80 ms
//   aiython unconfigured − bare node      ≤ 10 ms
//   aiython configured − unconfigured     ≤ 15 ms
//   npm run build && node --import tsx bench/startup.ts [rounds]

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(ROOT, "bin", "aiython");
const rounds = Number(process.argv[2] ?? 30);
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
const plainHello = project("plain", null);
const configuredHello = project("configured", 'version = 3\nmodel = { model = "bench-model", api_base = "http://127.0.0.1:9/v1" }\n');
const floor = path.join(dir, "floor.mjs");
fs.writeFileSync(floor, `import { spawn } from "node:child_process";
spawn(process.argv[2], process.argv.slice(3), { stdio: "inherit" }).on("close", (code) => { process.exitCode = code; });\n`);

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
  times: number[];
}

const programs = [
  { name: "python3", command: python, args: [plainHello] },
  { name: "bare node", command: process.execPath, args: [floor, python, plainHello] },
  { name: "unconfigured", command: CLI, args: [plainHello] },
  { name: "configured", command: CLI, args: [configuredHello] },
];
const envs = caBundle ? [{ label: "with CA", env: withCa }, { label: "without CA", env: withoutCa }] : [{ label: "without CA", env: withoutCa }];
const variants: Variant[] = envs.flatMap(({ label, env }) => programs.map((p) => ({ ...p, name: `${p.name}, ${label}`, env, times: [] })));
const byName = (name: string) => variants.find((v) => v.name === name) as Variant;

function time(v: Variant): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(v.command, v.args, { env: v.env, cwd: path.dirname(v.args[v.args.length - 1]), stdio: ["ignore", "pipe", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 || String(result.stdout) !== "hello\n" || String(result.stderr) !== "") {
    throw new Error(`${v.name} failed (${result.status}): ${result.stderr}`);
  }
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

for (const v of variants) for (let i = 0; i < 2; i++) time(v); // warm the page cache
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < variants.length; k++) {
    const v = variants[(k + round) % variants.length];
    v.times.push(time(v));
  }
}
fs.rmSync(dir, { recursive: true, force: true });

/** Median over rounds of (a − b), both measured in the same round. */
const diff = (a: string, b: string) => median(byName(a).times.map((t, i) => t - byName(b).times[i]));
const verdict = (ms: number, budget: number) => `${ms.toFixed(1).padStart(6)} ms (budget ≤ ${budget} ms) ${ms <= budget ? "within budget" : "OVER BUDGET"}`;

console.log(`interpreter: ${python}; ${rounds} rounds, ${variants.length} variants interleaved; medians`);
for (const v of variants) console.log(`  ${v.name.padEnd(28)} ${median(v.times).toFixed(1).padStart(7)} ms`);
for (const { label } of envs) {
  console.log(`${label}${label === "with CA" ? ` (NODE_EXTRA_CA_CERTS=${caBundle})` : ""}:`);
  console.log(`  unconfigured − python3      ${verdict(diff(`unconfigured, ${label}`, `python3, ${label}`), 80)}`);
  console.log(`  unconfigured − bare node    ${verdict(diff(`unconfigured, ${label}`, `bare node, ${label}`), 10)}`);
  console.log(`  configured − unconfigured   ${verdict(diff(`configured, ${label}`, `unconfigured, ${label}`), 15)}`);
}
