// bench/handled-failures: what a failing statement that its caller handles costs with a model
// configured (its checkpoint's handler runs, asks nothing), against python3: the time per failure
// measured inside the program (bench/handled-failures/failures.py: best of 5 repeats of N
// failures) with nothing watching, under a sys.setprofile function and under a sys.settrace
// function, where the handler's calls into aiython are set aside from them (recovery/unseen.py).
// Paired runs, the order alternating: python3, this build's aiython and, with --against ROOT,
// another built checkout's. Prints medians in µs per failure and each one's ratio to python3's.
// No budget of SPEC §12 covers failures; this says what tracers cost on top of a handler.
//   npm run build && node --import tsx bench/handled-failures.ts [pairs] [--python PATH] [--against ROOT] [--n N]

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FILES = path.join(ROOT, "bench", "handled-failures");
const args = process.argv.slice(2);
function option(name: string): string | null {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : null;
}
const pythonArg = option("--python") ?? "python3";
const against = option("--against");
const n = Number(option("--n") ?? 2000);
const pairs = Number(args[0] ?? 10);
const python = spawnSync(pythonArg, ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();
if (!python) throw new Error(`cannot run ${pythonArg}`);

const env: NodeJS.ProcessEnv = { ...process.env };
for (const key of Object.keys(env)) if (key.startsWith("OPENAI_") || key.startsWith("AIYTHON_")) delete env[key];
const withModel: NodeJS.ProcessEnv = { ...env, AIYTHON_MODEL: "bench-failures", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "unused" };
const MODES = ["plain", "profiled", "traced"] as const;

interface Variant {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  times: Record<(typeof MODES)[number], number[]>;
}

function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-failures-"));
  fs.mkdirSync(path.join(dir, ".git"));
  fs.copyFileSync(path.join(FILES, "failures.py"), path.join(dir, "failures.py"));
  // The failing project module is the one test/invisible-tracers.test.ts traces.
  fs.copyFileSync(path.join(ROOT, "test", "fixtures", "invisible", "helper.py"), path.join(dir, "helper.py"));
  return dir;
}

const dir = project();
const program = ["failures.py", String(n)];
const variants: Variant[] = [
  { name: "python3", command: python, args: program, env, times: { plain: [], profiled: [], traced: [] } },
  {
    name: "aiython",
    command: path.join(ROOT, "bin", "aiython"),
    args: ["--python", python, "--no-journal", ...program],
    env: withModel,
    times: { plain: [], profiled: [], traced: [] },
  },
];
if (against) {
  const cli = path.join(path.resolve(against), "bin", "aiython");
  variants.push({ name: "against", command: cli, args: ["--python", python, "--no-journal", ...program], env: withModel, times: { plain: [], profiled: [], traced: [] } });
}

function run(variant: Variant): void {
  const result = spawnSync(variant.command, variant.args, { env: variant.env, cwd: dir, encoding: "utf8" });
  const match = /^plain (\S+) profiled (\S+) traced (\S+)$/m.exec(result.stdout ?? "");
  if (result.status !== 0 || !match) throw new Error(`${variant.name} failed (${result.status}): ${result.stderr}`);
  for (const [i, mode] of MODES.entries()) variant.times[mode].push(Number(match[i + 1]));
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

for (const variant of variants) run(variant); // warm-up: the preparation cache, file caches
for (const variant of variants) for (const mode of MODES) variant.times[mode] = [];
for (let i = 0; i < pairs; i++) for (const variant of i % 2 ? variants : [...variants].reverse()) run(variant);
fs.rmSync(dir, { recursive: true, force: true });

console.log(
  `interpreter: ${python}; ${n} failures per repeat, ${pairs} paired runs; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
for (const mode of MODES) {
  const base = median(variants[0].times[mode]);
  const cells = variants.map((v) => {
    const us = (median(v.times[mode]) / n) * 1e6;
    return `${v.name} ${us.toFixed(2)} µs${v === variants[0] ? "" : ` (×${(median(v.times[mode]) / base).toFixed(2)})`}`;
  });
  console.log(`${mode.padEnd(9)} ${cells.join("   ")}`);
}
if (against) console.log(`against: ${path.resolve(against)}`);
