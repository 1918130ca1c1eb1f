// bench/frontend scaling: `aiython --explain` as users run it (the built CLI) on generated
// programs of 1 MB with 20 natural-language lines, 4 MB and 16 MB (20 lines each), and 1 MB with
// 2,000 natural-language lines with a model configured; each row's wall time and the peak resident
// set of the largest process (host or bridge: the kernel's accounting of children), with its ratio
// to the 1 MB case, memory per MB of source (the peak over the size) and the growth per MB over
// the 1 MB case's peak. Budgets (issue 35, on a quiet machine): 1 MB ≤ 1.0 s; 16 MB ≤ 1 GB peak;
// ≤ 20 MB of memory per MB of source (judged at 16 MB, where the interpreters' own start-up
// memory weighs least); 2,000 lines ≤ 3 s. With `--against ROOT`, another built checkout runs each
// case too, alternating with this one (A B A B, the order flipping every round), and each row
// shows both, with this one's ratio to the other's. The CPU time of all the processes (user +
// system) is printed beside the wall time: on a busy machine it moves far less.
//   npm run build && node --import tsx bench/frontend.ts scaling [rounds] [--against ROOT]

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildBigProgram } from "./big-program.js";

const PYTHON = process.env.AIYTHON_TEST_PYTHON ?? "python3";
const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(3);
const againstAt = args.indexOf("--against");
const against = againstAt >= 0 ? path.resolve(args.splice(againstAt, 2)[1]) : null;
const rounds = Number(args[0] ?? 1);
// Runs a command and prints its status, wall seconds, the peak resident set of the largest of its
// processes (KB) and the CPU seconds (user + system) of them all.
const PEAK_OF = `
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(done.returncode, time.perf_counter() - start, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
`;
const TOML = 'version = 3\nmodel = { model = "bench-model", api_base = "http://127.0.0.1:9/v1" }\n';

interface Case {
  name: string;
  size: number;
  natural: number;
  configured: boolean;
  file: string;
}

const dir = mkdtempSync(path.join(tmpdir(), "aiython-frontend-scaling-"));
const cases: Case[] = [
  { name: "1 MB, 20 lines", size: 1_000_000, natural: 20, configured: false, file: "" },
  { name: "4 MB", size: 4_000_000, natural: 20, configured: false, file: "" },
  { name: "16 MB", size: 16_000_000, natural: 20, configured: false, file: "" },
  { name: "1 MB, 2,000 lines, configured", size: 1_000_000, natural: 2000, configured: true, file: "" },
];
for (const c of cases) {
  const folder = path.join(dir, c.name.replace(/\W+/g, "-"));
  mkdirSync(folder);
  if (c.configured) writeFileSync(path.join(folder, "aiython.toml"), TOML);
  c.file = path.join(folder, "big.py");
  writeFileSync(c.file, buildBigProgram(c.size, c.natural).source);
}

const checkouts = against ? [HERE, against] : [HERE];
type Seen = { seconds: number[]; mb: number[]; cpu: number[] };
const seen = new Map<string, Seen>();
const seenOf = (root: string, c: Case): Seen => {
  const key = `${root}\0${c.name}`;
  if (!seen.has(key)) seen.set(key, { seconds: [], mb: [], cpu: [] });
  return seen.get(key) as Seen;
};

try {
  for (let round = 0; round < rounds; round++) {
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
      for (const root of round % 2 === 0 ? checkouts : [...checkouts].reverse()) {
        const env = { ...process.env, OPENAI_API_KEY: "unused" };
        const cli = path.join(root, "bin", "aiython");
        const out = execFileSync(PYTHON, ["-c", PEAK_OF, cli, "--explain", c.file], { encoding: "utf8", cwd: path.dirname(c.file), env })
          .trim()
          .split(" ");
        if (out[0] !== "0") throw new Error(`aiython --explain ${c.name} (${root}) exited ${out[0]}`);
        seenOf(root, c).seconds.push(Number(out[1]));
        seenOf(root, c).mb.push(Number(out[2]) / 1024);
        seenOf(root, c).cpu.push(Number(out[3]));
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const verdict = (ok: boolean) => (ok ? "within budget" : "OVER BUDGET");

function report(root: string, label: string): void {
  const base = seenOf(root, cases[0]);
  const [baseSeconds, baseMb] = [median(base.seconds), median(base.mb)];
  console.log(`${label}:`);
  for (const c of cases) {
    const seconds = median(seenOf(root, c).seconds);
    const mb = median(seenOf(root, c).mb);
    const cpu = median(seenOf(root, c).cpu);
    const perMb = mb / (c.size / 1e6);
    const growth = c.size > cases[0].size ? ` +${((mb - baseMb) / ((c.size - cases[0].size) / 1e6)).toFixed(1)} MB per MB over 1 MB,` : "";
    const budgets = [
      c === cases[0] ? `1.0 s ${verdict(seconds <= 1.0)}` : null,
      c.size === 16_000_000 ? `1 GB ${verdict(mb <= 1024)}, 20 MB per MB ${verdict(perMb <= 20)}` : null,
      c.natural === 2000 ? `3 s ${verdict(seconds <= 3)}` : null,
    ].filter((b) => b !== null);
    const other = against && root === HERE ? seenOf(against, c) : null;
    const versus = other
      ? `  [against: ${(seconds / median(other.seconds)).toFixed(2)}× time, ${(cpu / median(other.cpu)).toFixed(2)}× CPU, ${(mb / median(other.mb)).toFixed(2)}× peak]`
      : "";
    console.log(
      `  ${c.name.padEnd(30)} ${seconds.toFixed(2).padStart(6)} s (${(seconds / baseSeconds).toFixed(1)}× 1 MB; CPU ${cpu.toFixed(2)} s)  peak ${mb.toFixed(0).padStart(5)} MB (${(mb / baseMb).toFixed(1)}× 1 MB, ${perMb.toFixed(1)} MB per MB,${growth} runs ${seenOf(
        root,
        c,
      )
        .seconds.map((s) => s.toFixed(2))
        .join(" ")})  budget ${budgets.length > 0 ? budgets.join(", ") : "none of its own"}${versus}`,
    );
  }
}

console.log(`aiython --explain, ${rounds} round${rounds === 1 ? "" : "s"}${against ? " alternating with --against" : ""}, medians; peak of the largest process`);
report(HERE, `this checkout (${HERE})`);
if (against) report(against, `against (${against})`);
console.log(
  `load average: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} (2 cores; other work shares them)`,
);
